//! Causes joined by test, not by look. Two causes are one change when a
//! test says so: the other's smallest example, with this cause's output
//! change undone in its answers ([`super::what::Change::undo`]), answers
//! alike (the change seen inside a quoted term, inside another op's
//! answer), or, with this cause's trigger taken out of its input
//! ([`take_out`]), is answered alike by the two builds (the change shows
//! only where this trigger is). The tests are run for every ordered pair
//! of causes, the inputs in one batch per side; causes a test links are
//! one, titled by the example that shows the change most plainly.

use super::search::Search;
use super::what::{undone_alike, Change};
use super::Trigger;
use crate::subject::{Answer, Request};
use ptc_conformance::ops::Op;
use ptc_conformance::term::{Struct, Term};

/// One cause to join: its trigger, its smallest example and the change it shows.
pub struct Member<'a> {
    /// Its trigger.
    pub trigger: &'a Trigger,
    /// The other triggers found for its kinds; of these, the options (a
    /// key an op newly reads, well-formed or not, names one change by
    /// itself) are taken out of other examples too.
    pub also: &'a [Trigger],
    /// The op of its example.
    pub op: &'static Op,
    /// The example's arguments.
    pub args: &'a [Term],
    /// Base's answer.
    pub base: &'a Answer,
    /// Head's answer.
    pub head: &'a Answer,
    /// What changed in it.
    pub change: &'a Change,
}

/// A member's other options taken out of another's example, at most.
const ALSO_TRIED: usize = 8;

/// How one member was found to be another's change: the member that
/// explains it and the test that said so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The member explained.
    pub explained: usize,
    /// The member that explains it.
    pub by: usize,
    /// The test, in words.
    pub test: &'static str,
}

/// Runs both tests for every ordered pair of `members`: the links found.
pub fn links(search: &mut Search<'_>, members: &[Member<'_>]) -> Vec<Link> {
    tested(search, members, &|_| true)
}

/// Whether the other members explain member `b`: the links found, the
/// other members in order.
pub fn links_to(search: &mut Search<'_>, members: &[Member<'_>], b: usize) -> Vec<Link> {
    tested(search, members, &|x| x == b)
}

fn tested(
    search: &mut Search<'_>,
    members: &[Member<'_>],
    explained: &dyn Fn(usize) -> bool,
) -> Vec<Link> {
    let mut out = Vec::new();
    let mut probes: Vec<(usize, usize, Vec<Term>)> = Vec::new();
    for (b, mb) in members.iter().enumerate() {
        if !explained(b) {
            continue;
        }
        for (a, ma) in members.iter().enumerate() {
            if a == b {
                continue;
            }
            if undone_alike(ma.change, mb.op, mb.base, mb.head) {
                out.push(Link {
                    explained: b,
                    by: a,
                    test: "its change undone in the other's answers, they agree",
                });
                continue;
            }
            if ma.trigger.same_cause(mb.trigger) {
                out.push(Link {
                    explained: b,
                    by: a,
                    test: SAME_TRIGGER,
                });
                continue;
            }
            let triggers = std::iter::once(ma.trigger)
                .chain(
                    ma.also
                        .iter()
                        .filter(|t| *t != ma.trigger && matches!(t, Trigger::Option { .. })),
                )
                .take(ALSO_TRIED + 1);
            for t in triggers {
                for args in take_outs(t, mb.op.name, mb.args) {
                    probes.push((b, a, args));
                }
            }
            // An order cannot show in a map of one pair: for an order
            // changed, the pairs of a map cut to one (what the cut pairs
            // held cannot matter to an order, as it can to a value).
            if matches!(mb.change.delta, super::what::Delta::Order)
                && matches!(ma.trigger, Trigger::Pairs { .. })
            {
                if let Some(args) = take_out_all(ma.trigger, mb.op.name, mb.args) {
                    probes.push((b, a, args));
                }
            }
        }
    }
    let requests: Vec<Request<'_>> = probes
        .iter()
        .map(|(b, _, args)| Request::new(members[*b].op.name, args))
        .collect();
    let (b2, h2) = search.both(&requests);
    for (i, (b, a, args)) in probes.iter().enumerate() {
        let m = &members[*b];
        if out.iter().any(|l| l.explained == *b && l.by == *a) {
            continue;
        }
        if search
            .accept(m.op, args, (m.base, m.head), (&b2[i], &h2[i]))
            .is_some()
        {
            out.push(Link {
                explained: *b,
                by: *a,
                test: "its trigger taken out of the other's input, both builds answer alike",
            });
        }
    }
    let unexplained: Vec<usize> = (0..members.len())
        .filter(|&b| explained(b) && !out.iter().any(|l| l.explained == b))
        .collect();
    out.extend(together(search, members, &unexplained));
    out
}

/// For members that no single part of their input explains (their
/// trigger says "always": [`Trigger::is_always`]), or only a whole
/// container of it ([`Trigger::is_container`]), and that no other member
/// explains alone: an example that holds two changes at once (each shows
/// where the other's does, so taking out either part leaves a
/// difference, and only their container holds both). The others'
/// triggers are taken out of its input together ([`take_out_all`]); if
/// the two builds then answer alike, the member is no change of its own.
/// It joins the one whose change it shows: of those others without whose
/// trigger taken out the two still differ, the first whose trigger taken
/// out alone leaves a difference that is no longer the member's own
/// change ([`Change::of`]); else the first of them; else the first taken
/// out.
fn together(search: &mut Search<'_>, members: &[Member<'_>], unexplained: &[usize]) -> Vec<Link> {
    // Each candidate member, the others taken out, and where its inputs
    // start: all of them taken out, then all but each one, then each one
    // alone.
    let mut tries: Vec<(usize, Vec<usize>, usize)> = Vec::new();
    let mut inputs: Vec<(&'static str, Vec<Term>)> = Vec::new();
    for &b in unexplained {
        let mb = &members[b];
        if !mb.trigger.is_always() && !mb.trigger.is_container() {
            continue;
        }
        let without = |keep: &dyn Fn(usize) -> bool| -> (Vec<usize>, Vec<Term>) {
            let mut args = mb.args.to_vec();
            let mut used = Vec::new();
            for (a, ma) in members.iter().enumerate() {
                if a == b || !keep(a) {
                    continue;
                }
                if let Some(w) = take_out_all(ma.trigger, mb.op.name, &args) {
                    args = w;
                    used.push(a);
                }
            }
            (used, args)
        };
        let (used, all) = without(&|_| true);
        if used.is_empty() {
            continue;
        }
        tries.push((b, used.clone(), inputs.len()));
        inputs.push((mb.op.name, all));
        for &a in &used {
            inputs.push((mb.op.name, without(&|x| x != a).1));
        }
        for &a in &used {
            inputs.push((mb.op.name, without(&|x| x == a).1));
        }
    }
    if tries.is_empty() {
        return Vec::new();
    }
    let requests: Vec<Request<'_>> = inputs
        .iter()
        .map(|(op, args)| Request::new(op, args))
        .collect();
    let (b2, h2) = search.both(&requests);
    let mut out = Vec::new();
    for (b, used, at) in &tries {
        let m = &members[*b];
        let alike = |i: usize| {
            search
                .accept(m.op, &inputs[i].1, (m.base, m.head), (&b2[i], &h2[i]))
                .is_some()
        };
        // What is left may be another member's change that no part of
        // an input triggers (it shows always): undone, they agree.
        let undone = |a: usize, i: usize| undone_alike(members[a].change, m.op, &b2[i], &h2[i]);
        let rest = if alike(*at) {
            None
        } else {
            match (0..members.len()).find(|&a| a != *b && !used.contains(&a) && undone(a, *at)) {
                Some(a) => Some(a),
                None => continue,
            }
        };
        let gone = |i: usize| alike(i) || rest.is_some_and(|a| undone(a, i));
        let needed: Vec<(usize, usize)> = used
            .iter()
            .copied()
            .enumerate()
            .filter(|&(k, _)| !gone(at + 1 + k))
            .collect();
        // Taken out alone, it leaves a difference that is not the
        // member's change: the member's change is that one's.
        let shown = |k: usize| {
            let i = at + 1 + used.len() + k;
            alike(i) || &Change::of(m.op, &b2[i], &h2[i]) != m.change
        };
        let by = needed
            .iter()
            .find(|&&(k, _)| shown(k))
            .or(needed.first())
            .map(|&(_, a)| a)
            .or(rest)
            .unwrap_or(used[0]);
        out.push(Link {
            explained: *b,
            by,
            test: "no single part of its input explains it; the others' triggers taken out \
                   of it together (and a change that shows always undone), both builds answer \
                   alike: two changes shown at once",
        });
    }
    out
}

/// The test of two members whose triggers are one ([`Trigger::same_cause`]).
pub const SAME_TRIGGER: &str = "one trigger: the same part of the input, found for each";

/// The groups of members the links join, each a member and those it
/// explains or that explain it directly (no chains: one link that says
/// too much joins two causes, not everything either was linked to). Members whose triggers
/// are one ([`SAME_TRIGGER`]) are one member here, whichever way they are
/// reached: that link says nothing more than the trigger search does.
/// Members are taken in `order` (the plainest first): each one no earlier
/// group took starts a group of its own. Each group lists its first member
/// first.
pub fn groups(order: &[usize], links: &[Link]) -> Vec<Vec<usize>> {
    let n = order.len();
    // The members of one trigger, by union of SAME_TRIGGER links.
    let mut root: Vec<usize> = (0..n).collect();
    fn find(root: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while root[x] != x {
            root[x] = root[root[x]];
            x = root[x];
        }
        x
    }
    for l in links.iter().filter(|l| l.test == SAME_TRIGGER) {
        let (a, b) = (find(&mut root, l.explained), find(&mut root, l.by));
        root[a] = b;
    }
    let block = |root: &mut [usize], m: usize| -> Vec<usize> {
        let r = find(root, m);
        order
            .iter()
            .copied()
            .filter(|&x| find(root, x) == r)
            .collect()
    };
    let mut taken = vec![false; n];
    let mut out = Vec::new();
    for &m in order {
        if taken[m] {
            continue;
        }
        let mut group = Vec::new();
        let mut take = |x: usize, group: &mut Vec<usize>, root: &mut [usize]| {
            for y in block(root, x) {
                if !taken[y] {
                    taken[y] = true;
                    group.push(y);
                }
            }
        };
        take(m, &mut group, &mut root);
        let mine = group.clone();
        for l in links.iter().filter(|l| l.test != SAME_TRIGGER) {
            if mine.contains(&l.by) {
                take(l.explained, &mut group, &mut root);
            } else if mine.contains(&l.explained) {
                // One that explains it, met later in order (its example
                // less plain): one change, whichever example is plainer.
                take(l.by, &mut group, &mut root);
            }
        }
        // The member in order first leads.
        if let Some(p) = group.iter().position(|&x| x == m) {
            group.swap(0, p);
        }
        out.push(group);
    }
    out
}

/// [`take_out`], and for a trigger that names the pairs of a map at a
/// place of one op's input (their number or their order: any one of them
/// left out made the two agree), that map cut to its first pair when
/// `args` are that op's and the map holds more (the pairs the trigger
/// search would leave out, [`super::parts::candidates`]). Only for the
/// test of two changes shown at once, where the other change is known to
/// be elsewhere: alone, leaving pairs out takes whatever they held with
/// them (a `-0.0` in a map of one pair), which says nothing of the pairs.
pub fn take_out_all(trigger: &Trigger, op: &'static str, args: &[Term]) -> Option<Vec<Term>> {
    let Trigger::Pairs { op: at_op, path } = trigger else {
        return take_out_of(trigger, Some(op), args);
    };
    if *at_op != op {
        return None;
    }
    let mut args = args.to_vec();
    let mut cut = false;
    // Leave the pairs out one at a time, the first kept, while the map
    // holds more than one.
    loop {
        let next = super::parts::candidates(op, &args, usize::MAX)
            .into_iter()
            .filter(|c| matches!(c.trigger, Trigger::MapKey { .. }) && &c.from.1 == path)
            .collect::<Vec<_>>();
        if next.len() < 2 {
            break;
        }
        let Some(last) = next.into_iter().last() else {
            break;
        };
        args = last.args;
        cut = true;
    }
    cut.then_some(args)
}

/// The inputs to try with `trigger` taken out of `args` (an input of
/// `op`): [`take_out`]'s, then for a value, every value of its type in
/// the same kind of place ([`typewide`]): a rule that reads one tuple
/// reads them all, where the trigger search names the first it met in
/// each example (an empty one in one, one inside another in a second, one
/// in a list in a third). The test decides.
pub fn take_outs(trigger: &Trigger, op: &'static str, args: &[Term]) -> Vec<Vec<Term>> {
    let exact = take_out_of(trigger, Some(op), args);
    let mut out: Vec<Vec<Term>> = exact.iter().cloned().collect();
    if let Trigger::Value { path, value, .. } = trigger {
        if let Some(wide) = typewide(path, value, op, args) {
            if exact.as_ref() != Some(&wide) {
                out.push(wide);
            }
        }
    }
    out
}

/// `args` (of `op`) with every container (a tuple, a list, a map) of the
/// type of `value` at the kind of place a trigger's `path` ends in
/// replaced, but none in or inside an entry of a list `op` reads options
/// from (an option is a trigger of its own, `spec/data/ops.json`; its key
/// and its value go with it); `None` for a scalar (a number, for which
/// [`take_out`] reads every place; a text, an atom, which name things as
/// often as they hold data), a struct (a trigger of its own), a value
/// that is a whole argument, or when there is none.
fn typewide(path: &str, value: &str, op: &str, args: &[Term]) -> Option<Vec<Term>> {
    let v = ptc_conformance::tagged::decode_str(value, "").ok()?;
    let place = Place::of(path);
    if place == Place::Arg || !matches!(v, Term::Tuple(_) | Term::List(_) | Term::Map(_)) {
        return None;
    }
    fn all(t: &Term, out: &mut Vec<*const Term>) {
        out.push(std::ptr::from_ref(t));
        match t {
            Term::List(xs) | Term::Tuple(xs) => xs.iter().for_each(|x| all(x, out)),
            Term::Map(m) => m.iter().for_each(|(k, v)| {
                all(k, out);
                all(v, out);
            }),
            Term::Struct(s) => s.fields.iter().for_each(|(_, v)| all(v, out)),
            _ => {}
        }
    }
    let mut options: Vec<*const Term> = Vec::new();
    for entry in super::parts::option_lists(op, args).into_iter().flatten() {
        all(entry, &mut options);
    }
    let kind = std::mem::discriminant(&v);
    let like =
        |x: &Term| std::mem::discriminant(x) == kind && !options.contains(&std::ptr::from_ref(x));
    let mut hit = false;
    let out: Vec<Term> = args
        .iter()
        .map(|a| replaced(a, Place::Arg, Some(place), &like, &mut hit))
        .collect();
    hit.then_some(out)
}

/// `args` with what `trigger` names taken out wherever it is: a character
/// out of every text, every entry of an option, every struct of a module
/// (or of the modules a protocol lacks), a field out of every struct of
/// its module, a distinctive value. `None` when the trigger names nothing
/// an input can lose, or `args` hold none of it.
pub fn take_out(trigger: &Trigger, args: &[Term]) -> Option<Vec<Term>> {
    take_out_of(trigger, None, args)
}

/// [`take_out`] from an input of `op`, when known: a number the input
/// lacks stands for every number of its type in an input of the
/// trigger's own op.
fn take_out_of(trigger: &Trigger, op: Option<&str>, args: &[Term]) -> Option<Vec<Term>> {
    let mut hit = false;
    let out: Vec<Term> = match trigger {
        Trigger::Char { c, within } => {
            // Out of texts and map keys; out of atoms that are values only
            // when the trigger's own value was one: an atom an op reads
            // (a type, a mode, an option's value) is a name, and cutting
            // its characters changes what the op is asked, not what the
            // rule reads.
            let atoms = matches!(&**within, Trigger::Value { of, .. } if of == "atom");
            let exact: Vec<Term> = args
                .iter()
                .map(|a| without_chars(a, &|x| x == *c, atoms, &mut hit))
                .collect();
            if hit {
                exact
            } else {
                // The input holds not that character but others of its
                // class (an uppercase letter, a digit, a space): a rule
                // that reads one reads them all, which the test decides;
                // but not a class that is many characters and most of the
                // input's text (the lowercase letters of a long text),
                // which takes the text, its length and its words, with it.
                let class = char_class(*c);
                let (mut all, mut picked) = (0, 0);
                for a in args {
                    count_chars(a, &|x| char_class(x) == class, atoms, &mut all, &mut picked);
                }
                if picked > 16 && picked * 3 > all {
                    return None;
                }
                args.iter()
                    .map(|a| without_chars(a, &|x| char_class(x) == class, atoms, &mut hit))
                    .collect()
            }
        }
        Trigger::Option { key, .. } => args
            .iter()
            .map(|a| without_option(a, key, &mut hit))
            .collect(),
        Trigger::Struct { module } => {
            return super::parts::without_structs(args, module);
        }
        Trigger::Impl { modules, .. } => {
            let mut now = args.to_vec();
            for m in modules {
                if let Some(w) = super::parts::without_structs(&now, m) {
                    hit = true;
                    now = w;
                }
            }
            now
        }
        Trigger::Field { module, field } => args
            .iter()
            .map(|a| without_field(a, module, field, &mut hit))
            .collect(),
        Trigger::Value {
            value,
            path,
            op: at_op,
            ..
        } => {
            // The value replaced by another wherever the input holds it (a
            // value too common to name anything, only in the same kind of
            // place: a `nil` in a mode tuple is not a `nil` value of a
            // map); when it holds none and it is a number, in an input of
            // the trigger's own op, every number of its type (a rule that
            // reads one float reads them all, which the test decides; in
            // another op a number is a limit, a count, an index).
            let common = ["null", "true", "false", "0", "1", "\"\"", "[]", "{}"];
            let place = if common.contains(&value.as_str()) {
                Some(Place::of(path))
            } else {
                None
            };
            let v = ptc_conformance::tagged::decode_str(value, "").ok()?;
            let exact: Vec<Term> = args
                .iter()
                .map(|a| replaced(a, Place::Arg, place, &|x| x == &v, &mut hit))
                .collect();
            if hit {
                exact
            } else if matches!(v, Term::Float(_) | Term::Int(_)) && Some(*at_op) == op {
                let kind = std::mem::discriminant(&v);
                let like = |x: &Term| std::mem::discriminant(x) == kind;
                args.iter()
                    .map(|a| replaced(a, Place::Arg, place, &like, &mut hit))
                    .collect()
            } else {
                return None;
            }
        }
        _ => return None,
    };
    hit.then_some(out)
}

fn rebuild(t: &Term, f: &mut dyn FnMut(&Term) -> Term) -> Term {
    match t {
        Term::List(xs) => Term::List(xs.iter().map(&mut *f).collect()),
        Term::Tuple(xs) => Term::Tuple(xs.iter().map(&mut *f).collect()),
        Term::Map(m) => Term::map(m.iter().map(|(k, v)| (f(k), f(v))).collect()),
        Term::Struct(s) => Term::Struct(Box::new(Struct {
            module: s.module.clone(),
            fields: s.fields.iter().map(|(n, v)| (n.clone(), f(v))).collect(),
        })),
        other => other.clone(),
    }
}

/// A character's class, for taking out characters like a trigger's.
fn char_class(c: char) -> u8 {
    if c.is_uppercase() {
        0
    } else if c.is_lowercase() {
        1
    } else if c.is_numeric() {
        2
    } else if c.is_whitespace() {
        3
    } else if c.is_ascii_punctuation() {
        4
    } else if c.is_control() {
        5
    } else {
        6
    }
}

/// The characters of the texts and map keys of `t` (and of its atoms
/// when `atoms`), added to `all`, and those `pick` picks, to `picked`.
fn count_chars(
    t: &Term,
    pick: &dyn Fn(char) -> bool,
    atoms: bool,
    all: &mut usize,
    picked: &mut usize,
) {
    let text = |s: &str, all: &mut usize, picked: &mut usize| {
        for c in s.chars() {
            *all += 1;
            *picked += usize::from(pick(c));
        }
    };
    match t {
        Term::Str(s) => text(s, all, picked),
        Term::Atom(s) if atoms => text(s, all, picked),
        Term::Map(m) => m.iter().for_each(|(k, v)| {
            match k {
                Term::Atom(s) => text(s, all, picked),
                _ => count_chars(k, pick, atoms, all, picked),
            }
            count_chars(v, pick, atoms, all, picked);
        }),
        Term::List(xs) | Term::Tuple(xs) => {
            xs.iter()
                .for_each(|x| count_chars(x, pick, atoms, all, picked));
        }
        Term::Struct(st) => st
            .fields
            .iter()
            .for_each(|(_, v)| count_chars(v, pick, atoms, all, picked)),
        _ => {}
    }
}

/// `t` with the characters `drop` picks taken out of every text and map
/// key, and of every atom when `atoms`.
fn without_chars(t: &Term, drop: &dyn Fn(char) -> bool, atoms: bool, hit: &mut bool) -> Term {
    let cut = |s: &str, hit: &mut bool| -> Option<String> {
        s.chars().any(drop).then(|| {
            *hit = true;
            s.chars().filter(|x| !drop(*x)).collect()
        })
    };
    match t {
        Term::Str(s) => cut(s, hit).map_or_else(|| t.clone(), Term::Str),
        Term::Atom(s) if atoms => cut(s, hit).map_or_else(|| t.clone(), |n| Term::atom(&n)),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| {
                    let k = match k {
                        Term::Atom(s) => cut(s, hit).map_or_else(|| k.clone(), |n| Term::atom(&n)),
                        _ => without_chars(k, drop, atoms, hit),
                    };
                    (k, without_chars(v, drop, atoms, hit))
                })
                .collect(),
        ),
        _ => rebuild(t, &mut |x| without_chars(x, drop, atoms, hit)),
    }
}

fn without_option(t: &Term, key: &str, hit: &mut bool) -> Term {
    match t {
        Term::List(xs) => {
            let kept: Vec<&Term> = xs
                .iter()
                .filter(|x| {
                    let named = match x {
                        Term::Tuple(kv) => kv.first().and_then(Term::as_atom) == Some(key),
                        Term::Atom(a) => a == key,
                        _ => false,
                    };
                    *hit |= named;
                    !named
                })
                .collect();
            Term::List(
                kept.into_iter()
                    .map(|x| without_option(x, key, hit))
                    .collect(),
            )
        }
        _ => rebuild(t, &mut |x| without_option(x, key, hit)),
    }
}

fn without_field(t: &Term, module: &str, field: &str, hit: &mut bool) -> Term {
    match t {
        Term::Struct(s) if s.module == module && s.fields.iter().any(|(f, _)| f == field) => {
            *hit = true;
            let s = Struct {
                module: s.module.clone(),
                fields: s
                    .fields
                    .iter()
                    .filter(|(f, _)| f != field)
                    .map(|(f, v)| (f.clone(), without_field(v, module, field, hit)))
                    .collect(),
            };
            Term::Struct(Box::new(s))
        }
        _ => rebuild(t, &mut |x| without_field(x, module, field, hit)),
    }
}

/// The kind of place a term sits in, as a trigger's path ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// An argument itself.
    Arg,
    /// A map's value or a list's element (`/*`, `/:key`, `/[option]`).
    Item,
    /// A tuple's element (`/0`).
    Element,
    /// A struct's field (`/.name`).
    Field,
}

impl Place {
    /// The place a trigger's path (`/1/*/:a`) ends in.
    fn of(path: &str) -> Place {
        let segments = path.split('/').filter(|s| !s.is_empty()).count();
        let last = path.rsplit('/').next().unwrap_or("");
        if segments <= 1 {
            Place::Arg
        } else if last.starts_with('.') {
            Place::Field
        } else if last.chars().all(|c| c.is_ascii_digit()) {
            Place::Element
        } else {
            Place::Item
        }
    }
}

/// `t`, sitting in a place of kind `at`, with every term `is` picks (in
/// a place of kind `place`, when one is given; outermost first) replaced
/// by another of no bearing ([`other_than`]).
fn replaced(
    t: &Term,
    at: Place,
    place: Option<Place>,
    is: &dyn Fn(&Term) -> bool,
    hit: &mut bool,
) -> Term {
    if place.is_none_or(|p| p == at) && is(t) {
        *hit = true;
        return other_than(t);
    }
    let go = |x: &Term, at: Place, hit: &mut bool| replaced(x, at, place, is, hit);
    match t {
        Term::List(xs) => Term::List(xs.iter().map(|x| go(x, Place::Item, hit)).collect()),
        Term::Tuple(xs) => Term::Tuple(xs.iter().map(|x| go(x, Place::Element, hit)).collect()),
        // A key too, when it is a value picked (a float key is read like
        // a float value by a rule over floats, a tuple key like a tuple);
        // not a text or an atom, which name the value they key. A key
        // that would then be met twice keeps its pair once.
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| {
                    let key = if is_scalar(k) {
                        go(k, Place::Item, hit)
                    } else {
                        k.clone()
                    };
                    (key, go(v, Place::Item, hit))
                })
                .collect(),
        ),
        Term::Struct(s) => Term::Struct(Box::new(Struct {
            module: s.module.clone(),
            fields: s
                .fields
                .iter()
                .map(|(n, v)| (n.clone(), go(v, Place::Field, hit)))
                .collect(),
        })),
        other => other.clone(),
    }
}

fn is_scalar(t: &Term) -> bool {
    !matches!(t, Term::Str(_) | Term::Atom(_) | Term::Bytes(_))
}

/// A term in place of `t` that is not `t`: `nil` for most, something for
/// `nil` and the other values too common to stand for nothing.
fn other_than(t: &Term) -> Term {
    match t {
        Term::Nil => Term::int(0),
        Term::Bool(b) => Term::Bool(!b),
        Term::Int(_) if *t == Term::int(0) => Term::int(2),
        Term::Int(_) | Term::Float(_) => Term::int(0),
        Term::Str(s) if s.is_empty() => Term::str("x"),
        Term::List(xs) if xs.is_empty() => Term::List(vec![Term::int(0)]),
        Term::Map(m) if m.is_empty() => Term::map(vec![(Term::str("x"), Term::int(0))]),
        _ => Term::Nil,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trigger_is_taken_out_wherever_the_input_holds_it() {
        let args = vec![
            Term::List(vec![
                Term::tuple(vec![Term::atom("limit"), Term::int(3)]),
                Term::atom("limit"),
                Term::tuple(vec![Term::atom("mode"), Term::str("a b")]),
            ]),
            Term::map(vec![(Term::str("x y"), Term::atom("p q"))]),
        ];
        let opt = Trigger::Option {
            op: "protocol.render_error",
            path: "/2".into(),
            key: "limit".into(),
        };
        assert_eq!(
            take_out(&opt, &args).unwrap()[0],
            Term::List(vec![Term::tuple(vec![
                Term::atom("mode"),
                Term::str("a b")
            ])])
        );
        let space = Trigger::Char {
            c: ' ',
            within: Box::new(opt.clone()),
        };
        let out = take_out(&space, &args).unwrap();
        // Out of texts and keys, not out of an atom that is a value.
        assert_eq!(
            out[1],
            Term::map(vec![(Term::str("xy"), Term::atom("p q"))])
        );
        let in_atom = Trigger::Char {
            c: ' ',
            within: Box::new(Trigger::Value {
                op: "key_normalizer.normalize_key",
                path: "/0".into(),
                of: "atom".into(),
                value: "{\"$atom\":\"a b\"}".into(),
            }),
        };
        assert_eq!(
            take_out(&in_atom, &args).unwrap()[1],
            Term::map(vec![(Term::str("xy"), Term::atom("pq"))])
        );
        // A character the input lacks: those of its class (a tab: spaces).
        let tab = Trigger::Char {
            c: '\t',
            within: Box::new(opt.clone()),
        };
        assert_eq!(take_out(&tab, &args), Some(out));
        let digit = Trigger::Char {
            c: '7',
            within: Box::new(opt.clone()),
        };
        assert_eq!(take_out(&digit, &args), None, "nothing to take out");
        // A class that is most of the input's text is not taken out (the
        // lowercase letters of a long print): it takes the text with it.
        let b = Trigger::Char {
            c: 'b',
            within: Box::new(opt),
        };
        let long = vec![Term::str("é".repeat(500)), Term::str("X")];
        assert_eq!(take_out(&b, &long), None);
        let few = vec![Term::str("ABCDEFa")];
        assert_eq!(take_out(&b, &few), Some(vec![Term::str("ABCDEF")]));
        // A float value stands for every float, map keys included (a
        // rule over floats reads a float key too); a key met twice then
        // keeps one pair.
        let float = Trigger::Value {
            op: "native_preview.cache_hint",
            path: "/1/*".into(),
            of: "float".into(),
            value: "{\"$float\":0.125}".into(),
        };
        let keyed = vec![Term::map(vec![
            (Term::Float(2.5), Term::Nil),
            (Term::Float(3.5), Term::Nil),
            (Term::str("k"), Term::List(vec![Term::Float(1.5)])),
        ])];
        assert_eq!(
            take_outs(&float, "native_preview.cache_hint", &keyed),
            vec![vec![Term::map(vec![
                (Term::int(0), Term::Nil),
                (Term::str("k"), Term::List(vec![Term::int(0)])),
            ])]]
        );
        // In another op's input a number is a limit or a count: no.
        assert!(take_outs(&float, "tool.validate", &keyed).is_empty());
    }

    #[test]
    fn a_value_stands_for_its_type_at_its_kind_of_place_but_not_in_options() {
        // The search named an empty tuple in a map; another example holds
        // one inside a list, and a keyword list of options (tuples too).
        let tuple = Trigger::Value {
            op: "native_preview.cache_hint",
            path: "/1/:mode".into(),
            of: "tuple".into(),
            value: "{\"$tuple\":[]}".into(),
        };
        let one = Term::tuple(vec![Term::str("x")]);
        let args = vec![Term::str("t"), Term::List(vec![one.clone(), Term::int(1)])];
        assert_eq!(take_out(&tuple, &args), None, "no empty tuple");
        assert_eq!(
            take_outs(&tuple, "native_preview.cache_hint", &args),
            vec![vec![
                Term::str("t"),
                Term::List(vec![Term::Nil, Term::int(1)])
            ]]
        );
        // protocol.render_error reads options at args/2: its entries,
        // and what they hold, stay (an option is a trigger of its own).
        let opts = Term::List(vec![Term::tuple(vec![
            Term::atom("limit"),
            Term::List(vec![one.clone()]),
        ])]);
        let args = vec![Term::atom("e"), Term::str("m"), opts];
        assert!(take_outs(&tuple, "protocol.render_error", &args).is_empty());
        // A scalar is no type to take out: an atom names an option's key.
        let atom = Trigger::Value {
            op: "native_preview.build",
            path: "/0/.native_result/[preview]/1".into(),
            of: "atom".into(),
            value: "{\"$atom\":\"rows\"}".into(),
        };
        assert!(take_outs(&atom, "protocol.render_error", &args).is_empty());
    }

    #[test]
    fn the_pairs_of_a_map_are_cut_to_one_in_that_ops_input_only() {
        let pairs = Trigger::Pairs {
            op: "native_preview.build",
            path: "/1".into(),
        };
        let m = |n: i64| Term::map((0..n).map(|i| (Term::int(i), Term::Nil)).collect());
        let args = vec![Term::Nil, m(3)];
        assert_eq!(
            take_out_all(&pairs, "native_preview.build", &args),
            Some(vec![Term::Nil, m(1)])
        );
        assert_eq!(
            take_out_all(&pairs, "native_preview.cache_hint", &args),
            None
        );
        assert_eq!(
            take_out_all(&pairs, "native_preview.build", &[Term::Nil, m(1)]),
            None
        );
        let nested = Trigger::Pairs {
            op: "native_preview.build",
            path: "/0/.native_result/:a".into(),
        };
        let tool = Term::Struct(Box::new(Struct {
            module: "PtcRunner.Tool".into(),
            fields: vec![(
                "native_result".into(),
                Term::map(vec![(Term::atom("a"), m(2))]),
            )],
        }));
        let Some(out) = take_out_all(&nested, "native_preview.build", &[tool]) else {
            panic!("a nested map is reached");
        };
        assert!(ptc_conformance::tagged::encode(&out[0]).contains("[[0,null]]"));
    }

    #[test]
    fn links_join_a_member_to_the_one_that_explains_it_without_chains() {
        let l = |explained, by| Link {
            explained,
            by,
            test: "",
        };
        // 1 explains 3, 3 explains 4: 4 is not joined to 1 through 3.
        assert_eq!(
            groups(&[0, 1, 2, 3, 4], &[l(3, 1), l(4, 3)]),
            vec![vec![0], vec![1, 3], vec![2], vec![4]]
        );
        // Taken in another order, 3 explains 4 first, and 1, which
        // explains 3, joins it too: both are linked to 3 directly.
        assert_eq!(
            groups(&[3, 1, 0, 2, 4], &[l(3, 1), l(4, 3)]),
            vec![vec![3, 1, 4], vec![0], vec![2]]
        );
        // One trigger found for 0, 3 and 1 is one member, reached through
        // either: 1 takes 3 and, through it, 0, and 2, which explains 0.
        let same = |explained, by| Link {
            explained,
            by,
            test: SAME_TRIGGER,
        };
        assert_eq!(
            groups(&[1, 3, 0, 2], &[same(0, 3), same(3, 1), l(0, 2)]),
            vec![vec![1, 3, 0, 2]]
        );
        // What a member of the block explains joins the block's group.
        assert_eq!(
            groups(&[1, 3, 0, 2], &[same(0, 3), l(2, 0)]),
            vec![vec![1], vec![3, 0, 2]]
        );
    }
}
