//! The search for a kind's trigger: the parts of its smallest example
//! taken out one at a time, each sent to both sides in one pipelined batch.

use super::{
    answered, holds_struct, impl_candidate, named, parts, protocols, Found, Trigger, MAX_CANDIDATES,
};
use crate::judging::judge::Reading;
use crate::review::attribution::{explain, Shapes};
use crate::review::fuzz::disagreement::{difference_of_kind, disagreement};
use crate::review::fuzz::known_kinds::Known;
use crate::review::kinds::{How, Kind, Labels, Side};
use crate::review::show::answer_text;
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;

/// Distinct characters of a text a search takes out one at a time, at most.
pub const MAX_CHARS: usize = 24;
/// Texts of one input searched for one character when no part of the
/// input is the trigger, at most (the smallest first).
pub const MAX_TEXTS: usize = 6;

/// The two sides and what the search compares with.
pub struct Search<'a> {
    /// The first build.
    pub base: &'a mut dyn Subject,
    /// The second build.
    pub head: &'a mut dyn Subject,
    /// The struct shape changes known (a difference they explain is none).
    pub shapes: &'a Shapes,
    /// How structs are read.
    pub reading: Reading,
    /// What reports call the two sides.
    pub labels: Labels,
    /// The options the corpus gives, by op and place (for a changed
    /// default, [`super::default`]).
    pub seen: &'a super::default::OptionsSeen,
}

impl Search<'_> {
    /// The trigger of `kind`, whose example is `args` of `op` answered
    /// `base` and `head`: the smallest part without which both sides
    /// answer alike and one of them as before; [`Trigger::Alone`] when no
    /// single part is.
    pub fn trigger(
        &mut self,
        kind: &Kind,
        op: &'static Op,
        args: &[Term],
        (base, head): (&Answer, &Answer),
    ) -> Found {
        if let Some(found) = named(kind) {
            return found;
        }
        let alone = Found {
            trigger: Trigger::Alone(kind.clone()),
            how: "no single part of the input makes the two answer alike".into(),
        };
        if !answered(base) || !answered(head) {
            return alone;
        }
        let echo = self.echo(base, head);
        if let Some(found) = self.impl_lists(op, args, base, head) {
            return found;
        }
        // An echo of a struct change is that change, whatever option
        // would hide it (a limit that cuts the text before the field).
        if echo.is_none() {
            if let Some(found) = self.default_of(op, args, (base, head)) {
                return found;
            }
        }
        let mut candidates = parts::candidates(op.name, args, MAX_CANDIDATES);
        // A struct of the input one side cannot handle for want of a
        // protocol's implementation is tried first: its exception names it.
        if let Some(c) = impl_candidate(args, base, head) {
            candidates.insert(0, c);
            candidates.truncate(MAX_CANDIDATES);
        }
        let requests: Vec<Request<'_>> = candidates
            .iter()
            .map(|c| Request::new(op.name, &c.args))
            .collect();
        let (b2, h2) = self.both(&requests);
        let accepted: Vec<Option<String>> = candidates
            .iter()
            .zip(&b2)
            .zip(&h2)
            .map(|((c, b), h)| self.accept(op, &c.args, (base, head), (b, h)))
            .collect();
        // An option one side ignores (its answer stays as it was) is what
        // the other side newly reads: preferred to a part both sides read
        // (the data a change acts on), whatever their sizes. A struct a
        // protocol is missing for, named by the answer, comes first.
        let ignored_option = |i: usize| {
            matches!(candidates[i].trigger, Trigger::Option { .. })
                && accepted[i].as_deref().is_some_and(|k| k != "alike")
        };
        // A part both messages of a message change quote is tried first:
        // the change is likely in what the message says of it.
        let quoted =
            |i: usize| accepted[i].is_some() && quotes(kind, (base, head), &candidates[i], args);
        let order: Vec<usize> = (0..candidates.len())
            .filter(|&i| matches!(candidates[i].trigger, Trigger::Impl { .. }))
            .chain((0..candidates.len()).filter(|&i| quoted(i)))
            .chain((0..candidates.len()).filter(|&i| ignored_option(i)))
            .chain(0..candidates.len())
            .collect();
        for i in order {
            let c = &candidates[i];
            let Some(kept) = &accepted[i] else { continue };
            if let (false, Some(found)) = (matches!(c.trigger, Trigger::Field { .. }), &echo) {
                return found.clone();
            }
            // Another pair of the same map does as well: the pairs, not a key.
            let sibling = |j: usize| {
                j != i
                    && candidates[j].from == c.from
                    && matches!(candidates[j].trigger, Trigger::MapKey { .. })
                    && accepted[j].is_some()
            };
            if matches!(c.trigger, Trigger::MapKey { .. }) && (0..candidates.len()).any(sibling) {
                return Found {
                    trigger: Trigger::Pairs {
                        op: op.name,
                        path: c.from.1.clone(),
                    },
                    how: format!("any one pair left out, both answer {kept}"),
                };
            }
            let how = format!("{}, both answer {kept}", c.how);
            return self.narrowed(op, args, c, how, (base, head));
        }
        if let Some(found) = echo {
            return found;
        }
        self.char_in_texts(op, args, &candidates, (base, head))
            .or_else(|| self.unpartitioned(op, (base, head)))
            .unwrap_or(alone)
    }

    /// A changed default ([`super::default`]): an option the input leaves
    /// out, given at one value, makes the two answer alike with base
    /// answering as before (base's default), and given at another, alike
    /// with head answering as before (head's). Both are needed: an option
    /// that only hides the difference (a limit cutting the text before it)
    /// makes them alike at a value where one side keeps its answer, but at
    /// no value where the other does.
    fn default_of(
        &mut self,
        op: &'static Op,
        args: &[Term],
        (base, head): (&Answer, &Answer),
    ) -> Option<Found> {
        let variants = self.seen.variants(op.name, args);
        if variants.is_empty() {
            return None;
        }
        let requests: Vec<Request<'_>> = variants
            .iter()
            .map(|(_, _, a)| Request::new(op.name, a))
            .collect();
        let (b2, h2) = self.both(&requests);
        // A default is a value the op computes with: the side that keeps
        // its answer returned one (a side that failed before keeps failing
        // whatever option is added, which says nothing of a default).
        let same = |before: &Answer, now: &Answer, a: &[Term]| {
            answered(now)
                && failure(now).is_none()
                && disagreement(op, a, before, now, self.reading).is_none()
        };
        let alike = |i: usize| {
            self.accept(op, &variants[i].2, (base, head), (&b2[i], &h2[i]))
                .is_some()
        };
        let keeps = |i: usize, before: &Answer, now: &[Answer]| {
            alike(i) && same(before, &now[i], &variants[i].2)
        };
        let i = (0..variants.len()).find(|&i| {
            keeps(i, base, &b2)
                && (0..variants.len())
                    .any(|k| variants[k].0 == variants[i].0 && keeps(k, head, &h2))
        })?;
        let key = &variants[i].0;
        // A side's default is the one value tried at which it answers as
        // before; several such values (any limit past the rows the example
        // has) leave it unknown.
        let default = |answers: &[Answer], before: &Answer| {
            let at: Vec<usize> = (0..variants.len())
                .filter(|&j| &variants[j].0 == key && same(before, &answers[j], &variants[j].2))
                .collect();
            match at[..] {
                [j] => Some(ptc_conformance::tagged::encode(&variants[j].1)),
                _ => None,
            }
        };
        Some(Found {
            trigger: Trigger::Default {
                op: op.name,
                key: key.clone(),
                base: default(&b2, base),
                head: default(&h2, head),
            },
            how: format!(
                "left out; given as {}, both answer alike",
                ptc_conformance::tagged::encode(&variants[i].1)
            ),
        })
    }

    /// The trigger of an accepted part `c` (found `how`), narrowed: a
    /// struct whose definition changed is that change; a text is the one
    /// character in it that makes the builds differ, if one does.
    fn narrowed(
        &mut self,
        op: &'static Op,
        args: &[Term],
        c: &parts::Candidate,
        how: String,
        (base, head): (&Answer, &Answer),
    ) -> Found {
        if let Some(trigger) = self.changed_struct(&c.trigger, base, head) {
            return Found {
                trigger,
                how: format!("{how}; both answers hold that struct, whose definition changed"),
            };
        }
        if let Some(found) = c
            .text
            .and_then(|at| self.one_char(op, args, at, (base, head)))
            .map(|(ch, shown)| in_text(c, ch, format!("{how}; within it, {shown}")))
        {
            return found;
        }
        // A value outside any list of options (a tag, a scalar) that holds
        // no such character: a text elsewhere in the input may hold the
        // one character the change is about (a key rule met inside a
        // signature whose tag, taken out, skips the key).
        if matches!(&c.trigger, Trigger::Value { path, .. } if !path.contains("/[")) {
            let candidates = parts::candidates(op.name, args, MAX_CANDIDATES);
            if let Some(found) = self.char_in_texts(op, args, &candidates, (base, head)) {
                return found;
            }
        }
        Found {
            trigger: c.trigger.clone(),
            how,
        }
    }

    /// When no part is the trigger: the one character of a text (the
    /// smallest [`MAX_TEXTS`] texts of the input) that makes the builds
    /// differ, as [`Search::one_char`] finds it. A text whose replacement
    /// cuts the op short (a tool's name, a signature) may still hold it.
    fn char_in_texts(
        &mut self,
        op: &'static Op,
        args: &[Term],
        candidates: &[parts::Candidate],
        (base, head): (&Answer, &Answer),
    ) -> Option<Found> {
        let mut tried = Vec::new();
        for c in candidates {
            let Some(at) = c.text.filter(|at| !tried.contains(at)) else {
                continue;
            };
            if tried.len() == MAX_TEXTS {
                break;
            }
            tried.push(at);
            if let Some((ch, shown)) = self.one_char(op, args, at, (base, head)) {
                let what = match &c.trigger {
                    Trigger::MapKey { .. } => "map key",
                    _ => "text",
                };
                return Some(in_text(
                    c,
                    ch,
                    format!("the {what} at args{}: {shown}", c.from.1),
                ));
            }
        }
        None
    }

    /// For a kind no part of whose input the search could take out: a
    /// message change named by where the two messages part, else what
    /// changed in the output ([`super::what`]).
    fn unpartitioned(&self, op: &'static Op, (base, head): (&Answer, &Answer)) -> Option<Found> {
        if let Some((b, h, class)) = failure_messages(base, head) {
            if let Some(parting) = super::message::parting(&b, &h) {
                return Some(Found {
                    trigger: Trigger::Message { class, parting },
                    how: "no part of the input is what one message quotes (taken out, neither \
                          side raises as before): the message is reworded"
                        .into(),
                });
            }
        }
        let change = super::what::Change::of(op, base, head);
        let (what, depth) = (change.phrase(self.labels), change.depth);
        Some(Found {
            trigger: Trigger::Output {
                op: op.name,
                depth,
                what,
            },
            how: "no single part of the input makes the two answer alike: named by what \
                  differs in the output"
                .into(),
        })
    }

    /// The one character of the text at `at` (a string, an atom, a map
    /// key) that makes the two builds differ: taken out of the text, they
    /// answer alike (as [`Search::accept`] judges); alone in its place,
    /// they still differ, or at least not every character taken out makes
    /// them alike (then the text's length, not a character, is what
    /// matters). With how it was found, in words.
    fn one_char(
        &mut self,
        op: &'static Op,
        args: &[Term],
        at: (usize, Option<usize>),
        (base, head): (&Answer, &Answer),
    ) -> Option<(char, String)> {
        let text = parts::text_at(args, at)?;
        let mut chars: Vec<char> = Vec::new();
        for ch in text.chars() {
            if chars.len() == MAX_CHARS {
                break;
            }
            if !chars.contains(&ch) {
                chars.push(ch);
            }
        }
        let variants: Vec<(Vec<Term>, Vec<Term>)> = chars
            .iter()
            .map(|&ch| {
                let without: String = text.chars().filter(|&x| x != ch).collect();
                Some((
                    parts::with_text_everywhere(args, at, &without)?,
                    parts::with_text_everywhere(args, at, &ch.to_string())?,
                ))
            })
            .collect::<Option<_>>()?;
        let requests: Vec<Request<'_>> = variants
            .iter()
            .flat_map(|(without, alone)| {
                [Request::new(op.name, without), Request::new(op.name, alone)]
            })
            .collect();
        let (b2, h2) = self.both(&requests);
        let fixes: Vec<Option<String>> = (0..chars.len())
            .map(|i| self.accept(op, &variants[i].0, (base, head), (&b2[2 * i], &h2[2 * i])))
            .collect();
        let shows: Vec<bool> = (0..chars.len())
            .map(|i| {
                let (b, h) = (&b2[2 * i + 1], &h2[2 * i + 1]);
                answered(b) && answered(h) && !self.alike(op, &variants[i].1, b, h)
            })
            .collect();
        let fixing = fixes.iter().filter(|f| f.is_some()).count();
        let pick = (0..chars.len())
            .find(|&i| fixes[i].is_some() && shows[i])
            .or_else(|| {
                (fixing < chars.len())
                    .then(|| (0..chars.len()).find(|&i| fixes[i].is_some()))
                    .flatten()
            })?;
        let kept = fixes[pick].as_deref().unwrap_or("alike");
        let alone = if shows[pick] {
            "alone in its place, they still differ"
        } else {
            "the other characters taken out, they still differ"
        };
        Some((
            chars[pick],
            format!("taken out, both answer {kept}; {alone}"),
        ))
    }

    /// Whether answers `(b, h)` to an input with a part taken out make
    /// that part the trigger of a difference whose answers were
    /// `(base, head)`: how both answer then, if they do.
    pub(in crate::review::causes) fn accept(
        &self,
        op: &'static Op,
        args: &[Term],
        (base, head): (&Answer, &Answer),
        (b, h): (&Answer, &Answer),
    ) -> Option<String> {
        {
            if !answered(b) || !answered(h) || !self.alike(op, args, b, h) {
                return None;
            }
            // A difference only byte for byte (a payload equal as JSON,
            // rendered differently: the strict level it was found at) is
            // gone only when the two answers are the same bytes.
            if self.alike(op, args, base, head) && b != h {
                return None;
            }
            // Not an exception neither side raised before, nor an
            // `{:error, _}` neither side returned before: taking the part
            // out cut the op short on both sides, which says nothing of
            // what the part did.
            if let Some(x) = failure(b) {
                if failure(base).as_ref() != Some(&x) && failure(head).as_ref() != Some(&x) {
                    return None;
                }
            }
            let same = |before: &Answer, now: &Answer| {
                disagreement(op, args, before, now, self.reading).is_none()
            };
            let kept = if same(base, b) {
                format!("as {} did", self.labels.0)
            } else if same(head, h) {
                format!("as {} did", self.labels.1)
            } else {
                // A rewording is explained by a part only if, without it,
                // one side raises as before: the part is what the message
                // is about. Both raising or returning something else says
                // nothing of the wording.
                if reworded(base, head) {
                    return None;
                }
                "alike".to_owned()
            };
            Some(kept)
        }
    }

    /// The shape change whose field's text one answer renders and the
    /// other lacks (`runtime_prelude: nil` in one side's rendered
    /// `%PtcRunner.SubAgent.Definition{...}`), when attribution could not
    /// strip it (a text cut elsewhere, reordered): the difference is that
    /// struct change's echo, whatever value of the input moves the cut.
    fn echo(&self, base: &Answer, head: &Answer) -> Option<Found> {
        let (b, h) = (answer_text(base), answer_text(head));
        self.shapes.iter().find_map(|c| {
            let (has, lacks) = match c.side {
                Side::Expected => (&b, &h),
                Side::Actual => (&h, &b),
            };
            let field = format!("{}: ", c.field);
            (has.contains(&format!("%{}{{", c.module))
                && has.contains(&field)
                && !lacks.contains(&field))
            .then(|| Found {
                trigger: Trigger::Field {
                    module: c.module.clone(),
                    field: c.field.clone(),
                },
                how: format!(
                    "an echo: one side's text renders {}'s {} and the other's does not",
                    c.module, c.field
                ),
            })
        })
    }

    /// A protocol whose lists of implementations differ between the two
    /// answers' texts (an `#Inspect.Error<...>` of one build lists more
    /// types), when the answers agree once those lists are masked.
    fn impl_lists(
        &self,
        op: &'static Op,
        args: &[Term],
        base: &Answer,
        head: &Answer,
    ) -> Option<Found> {
        let (lb, lh) = (protocols::lists(base), protocols::lists(head));
        let found = lb.iter().find_map(|(protocol, b)| {
            let h = lh.get(protocol)?;
            let (only_h, only_b): (Vec<&String>, Vec<&String>) =
                (h.difference(b).collect(), b.difference(h).collect());
            let (modules, lacking) = match (only_h.is_empty(), only_b.is_empty()) {
                (false, _) => (only_h, Side::Expected),
                (true, false) => (only_b, Side::Actual),
                (true, true) => return None,
            };
            Some(Trigger::Impl {
                protocol: protocol.clone(),
                modules: modules.into_iter().cloned().collect(),
                lacking,
            })
        })?;
        self.alike(op, args, &protocols::masked(base), &protocols::masked(head))
            .then(|| Found {
                trigger: found,
                how: "the two sides' texts list different implementations of the protocol, \
                      and are alike once those lists are masked"
                    .into(),
            })
    }

    /// For a struct of the input that both answers hold (as a term, or
    /// as `%M{...}` text) and whose definition changed shape: that shape
    /// change, its first field standing for it. The difference is how the
    /// struct is defined (a default value too), not the struct's presence.
    fn changed_struct(&self, trigger: &Trigger, base: &Answer, head: &Answer) -> Option<Trigger> {
        let Trigger::Struct { module } = trigger else {
            return None;
        };
        let change = self.shapes.iter().find(|c| &c.module == module)?;
        let holds = |a: &Answer| match a {
            Answer::Ok(t) => holds_struct(t, module),
            Answer::Raised(r) => r.message.contains(&format!("%{module}{{")),
            _ => false,
        };
        (holds(base) && holds(head)).then(|| Trigger::Field {
            module: change.module.clone(),
            field: change.field.clone(),
        })
    }

    /// Both sides' answers to `requests`, the two answering at once.
    pub(in crate::review::causes) fn both(
        &mut self,
        requests: &[Request<'_>],
    ) -> (Vec<Answer>, Vec<Answer>) {
        crate::subject::call_both(&mut *self.base, &mut *self.head, requests).0
    }

    /// Whether two answers agree, or differ only by the struct shape changes.
    fn alike(&self, op: &'static Op, args: &[Term], b: &Answer, h: &Answer) -> bool {
        let differs =
            difference_of_kind(op, args, b, h, &Known::default(), self.reading, true).is_some();
        !differs || explain(op, b, h, self.shapes, self.reading).is_some()
    }
}

/// Whether the part a candidate takes out is quoted by either message of a
/// message change (an option's key, a field, a struct, a text value).
fn quotes(
    kind: &Kind,
    (base, head): (&Answer, &Answer),
    c: &parts::Candidate,
    args: &[Term],
) -> bool {
    let (How::Message { .. }, Answer::Raised(b), Answer::Raised(h)) = (&kind.how, base, head)
    else {
        return false;
    };
    let name = match &c.trigger {
        Trigger::Option { key, .. } => key.clone(),
        Trigger::Field { field, .. } => field.clone(),
        Trigger::Struct { module } => module.clone(),
        _ => match c.text.and_then(|at| parts::text_at(args, at)) {
            Some(t) if !t.is_empty() => t,
            _ => return false,
        },
    };
    b.message.contains(&name) || h.message.contains(&name)
}

/// How an answer says the op was cut short: the exception's class, or
/// `{:error, _}` returned.
fn failure(a: &Answer) -> Option<String> {
    match a {
        Answer::Raised(r) => Some(r.class.clone()),
        Answer::Ok(Term::Tuple(xs)) if xs.first().and_then(Term::as_atom) == Some("error") => {
            Some("{:error, _}".to_owned())
        }
        _ => None,
    }
}

/// The character `ch` of the text `c` takes out, as the trigger.
fn in_text(c: &parts::Candidate, ch: char, how: String) -> Found {
    Found {
        trigger: Trigger::Char {
            c: ch,
            within: Box::new(c.trigger.clone()),
        },
        how,
    }
}

/// The messages of two answers that fail alike (the same exception, or
/// both `{:error, text}` returned), with how they fail ([`failure`]).
pub(super) fn failure_messages(base: &Answer, head: &Answer) -> Option<(String, String, String)> {
    let text = |a: &Answer| match a {
        Answer::Raised(r) => Some(r.message.clone()),
        Answer::Ok(Term::Tuple(xs)) if xs.len() == 2 => match &xs[1] {
            Term::Str(s) => Some(s.clone()),
            Term::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
            _ => None,
        },
        _ => None,
    };
    let how = failure(base)?;
    (failure(head)? == how).then_some(())?;
    Some((text(base)?, text(head)?, how))
}

/// Whether two answers that fail alike part in prose where their
/// messages differ (a rewording), not only in what they quote nor in the
/// function they name, nor because one names a struct a protocol is
/// missing for (the protocol's change, which the search names by that
/// struct). An exception's message and an `{:error, text}`'s text alike:
/// a function several ops share may word either.
fn reworded(base: &Answer, head: &Answer) -> bool {
    let Some((b, h, _)) = failure_messages(base, head) else {
        return false;
    };
    if !protocols::missing_in(base).is_empty() || !protocols::missing_in(head).is_empty() {
        return false;
    }
    super::message::parting(&b, &h).is_some_and(|p| !super::message::names_code(&p))
}
