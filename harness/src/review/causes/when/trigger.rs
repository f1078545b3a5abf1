//! What a cause search names as the trigger of a difference, whether two
//! triggers are one change of the code behind them, and the line a report
//! titles each with.

use super::{in_list, under};
use crate::review::kinds::{Kind, Labels, Side};

/// What triggers a difference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Trigger {
    /// A struct field: only one side's struct has it, or the input naming
    /// it is what differs.
    Field {
        /// The struct's module.
        module: String,
        /// The field.
        field: String,
    },
    /// A struct in the input (no one field of it).
    Struct {
        /// Its module.
        module: String,
    },
    /// An option: a keyword-like list element with this atom key.
    Option {
        /// The op.
        op: &'static str,
        /// Where the list of options is (`/1`: argument 2).
        path: String,
        /// The key.
        key: String,
    },
    /// A protocol one side implements for structs the other side does
    /// not: named by the other side's `Protocol.UndefinedError`, or by the
    /// lists of implementations the two sides' texts give.
    Impl {
        /// The protocol (`String.Chars`).
        protocol: String,
        /// The structs.
        modules: Vec<String>,
        /// The side that does not implement it for them.
        lacking: Side,
    },
    /// Any one of two or more pairs of the map at a place of one op
    /// (their order or their number, not one key).
    Pairs {
        /// The op.
        op: &'static str,
        /// Where the map is.
        path: String,
    },
    /// A value's place inside a list: taken out of the list (the list
    /// replaced by it), both sides answer it alike, and one side's answer
    /// to it alone is part of its answer to the list (it reads the value
    /// the same way in the list and alone; the other side does not).
    Nested {
        /// The op.
        op: &'static str,
        /// Where the list is.
        path: String,
    },
    /// A map pair whose key is of this class (`gen::keys`).
    MapKey {
        /// The key's class.
        class: &'static str,
    },
    /// A value at a place in the input of one op.
    Value {
        /// The op.
        op: &'static str,
        /// Where (`/1/*/0`: argument 2, any list element, its first element).
        path: String,
        /// Its type.
        of: String,
        /// The value, as tagged JSON.
        value: String,
    },
    /// Inputs one side declines, for this reason.
    Refusal {
        /// The side that declines.
        side: Side,
        /// Why (without where in the args).
        reason: String,
    },
    /// Ops only one side declares.
    Ops {
        /// The ops.
        names: Vec<String>,
        /// The side that declares them.
        side: Side,
    },
    /// No valid answer from one side (a timeout, a crash): a fault of
    /// that side's adapter, not a difference of behaviour.
    Fault {
        /// The side.
        side: Side,
    },
    /// One character of a string, an atom or a map key: the smallest part
    /// of the value the search found that still makes the two builds
    /// differ (taken out of it, they answer alike; other characters taken
    /// out, they still differ). The same character in several ops and
    /// places is one cause (a key rule extended to one more character).
    Char {
        /// The character.
        c: char,
        /// The value (or map pair) the search found, that holds it.
        within: Box<Trigger>,
    },
    /// Both raise the same exception, its message reworded: no part of
    /// the input is what one message quotes.
    Message {
        /// The exception.
        class: String,
        /// Where the two messages part and how each reads there.
        parting: super::message::Parting,
    },
    /// An option the input leaves out, whose default differs: given at
    /// one side's default, the two answer alike ([`super::default`]).
    Default {
        /// The op it was met in.
        op: &'static str,
        /// The option's key.
        key: String,
        /// Base's default (tagged JSON), when one of the values tried is.
        base: Option<String>,
        /// Head's default, likewise.
        head: Option<String>,
    },
    /// No part of the input: every input shows it, named by what differs
    /// in the output ([`super::output`]), the same in any op and kind.
    Output {
        /// The op it was met in.
        op: &'static str,
        /// How deep in the answer (0: the answer itself), so a cause met in
        /// several ops is titled where it starts (the shallowest).
        depth: usize,
        /// What differs.
        what: String,
    },
    /// No single part of the input: the kind is a cause of its own.
    Alone(Kind),
}

impl Trigger {
    /// Preference among parts of one size: named parts first.
    pub fn rank(&self) -> u8 {
        match self {
            Trigger::Field { .. } => 0,
            Trigger::Struct { .. } => 1,
            Trigger::Option { .. } => 2,
            Trigger::MapKey { .. } | Trigger::Char { .. } => 3,
            Trigger::Value { .. } => 4,
            _ => 5,
        }
    }

    /// Whether it names no part of the input: the difference showed
    /// whatever single part was taken out (a reworded message, a change
    /// named by the output, a kind alone).
    pub fn is_always(&self) -> bool {
        matches!(
            self,
            Trigger::Message { .. } | Trigger::Output { .. } | Trigger::Alone(_)
        )
    }

    /// Whether it names a container of the input, not a scalar of it (a
    /// map, list or tuple value; a map's pairs, one pair by its key's
    /// class; a value nested in a list): a part that may hold two
    /// changes at once.
    pub fn is_container(&self) -> bool {
        match self {
            Trigger::Value { of, .. } => matches!(of.as_str(), "map" | "list" | "tuple"),
            Trigger::Pairs { .. } | Trigger::MapKey { .. } | Trigger::Nested { .. } => true,
            _ => false,
        }
    }

    /// Whether the trigger is one character of a value.
    pub fn is_char(&self) -> bool {
        matches!(self, Trigger::Char { .. })
    }

    /// Whether two triggers are one cause, that is, one change of the
    /// code behind them:
    /// - two values of one type at the same place of one op (the tag of
    ///   a tuple, whichever tag; a float and a `nil` met at one place are
    ///   two changes as often as one), or the same value anywhere (`-0.0` in any op),
    ///   unless that value is too common to name anything (`nil`, a
    ///   boolean, `0`, `1`, `""`, `[]`, `{}`);
    /// - one option key, in any op;
    /// - a value standing for a list of one op and what is in that list
    ///   (an option, a value inside an option or an element): a change in
    ///   how a function reads its list of options shows through both, and
    ///   joins the options it newly reads into one cause, where options
    ///   that merely share a list stay causes of their own;
    /// - implementations one side lacks of one protocol, or for one
    ///   struct (a release implementing protocols for its structs), and a
    ///   struct in the input whose implementations one side lacks;
    /// - values inside lists of one op, wherever the lists are.
    pub fn same_cause(&self, other: &Trigger) -> bool {
        use Trigger::{Impl, Option as Opt, Struct, Value};
        let common = ["null", "true", "false", "0", "1", "\"\"", "[]", "{}"];
        match (self, other) {
            (
                Value {
                    op,
                    path,
                    of,
                    value,
                },
                Value {
                    op: op2,
                    path: path2,
                    of: of2,
                    value: value2,
                },
            ) => {
                (op == op2
                    && of == of2
                    && (path == path2 || in_list(path, path2) || in_list(path2, path)))
                    || (value == value2 && of == of2 && !common.contains(&value.as_str()))
            }
            (Opt { key, .. }, Opt { key: key2, .. }) => key == key2,
            (
                Opt { op, path, key },
                Value {
                    op: vop,
                    path: vpath,
                    value,
                    ..
                },
            )
            | (
                Value {
                    op: vop,
                    path: vpath,
                    value,
                    ..
                },
                Opt { op, path, key },
            ) => {
                let at = format!("{path}/[{key}]");
                // A value inside an option with this key, in any op: the
                // option is what reads it (a malformed entry of it too).
                (op == vop && (under(vpath, &at) || in_list(&at, vpath)))
                    || vpath.contains(&format!("/[{key}]"))
                    || bare_option(vpath, value, key)
            }
            (
                Impl {
                    protocol,
                    modules,
                    lacking,
                },
                Impl {
                    protocol: p2,
                    modules: m2,
                    lacking: l2,
                },
            ) => {
                // One protocol, or one struct, or one family of structs (a
                // release implementing protocols for its display structs).
                let family = |m: &String| m.rsplit_once('.').map(|(f, _)| f.to_owned());
                lacking == l2
                    && (protocol == p2
                        || modules.iter().any(|m| m2.contains(m))
                        || modules.iter().any(|m| {
                            m2.iter()
                                .any(|n| family(m).is_some() && family(m) == family(n))
                        }))
            }
            (Impl { modules, .. }, Struct { module })
            | (Struct { module }, Impl { modules, .. }) => modules.contains(module),
            (Trigger::Char { c, .. }, Trigger::Char { c: c2, .. }) => c == c2,
            // How one op reads the pairs of a map, met at a map and at a
            // map inside it: one change.
            (
                Trigger::Pairs { op, path },
                Trigger::Pairs {
                    op: op2,
                    path: path2,
                },
            ) => {
                op == op2
                    && (path == path2
                        || in_list(path, path2)
                        || in_list(path2, path)
                        || under(path, path2)
                        || under(path2, path))
            }
            // Whether one op enters lists: one change wherever the list is.
            (Trigger::Nested { op, .. }, Trigger::Nested { op: op2, .. }) => op == op2,
            // A character inside an option's value is one with that option
            // (and its list): the option is what reads it.
            (Trigger::Char { within, .. }, o @ (Opt { .. } | Value { .. }))
            | (o @ (Opt { .. } | Value { .. }), Trigger::Char { within, .. }) => {
                matches!(&**within, Value { path, .. } if path.contains("/["))
                    && within.same_cause(o)
            }
            (
                Trigger::Message { class, parting },
                Trigger::Message {
                    class: class2,
                    parting: parting2,
                },
            ) => class == class2 && parting.base == parting2.base && parting.head == parting2.head,
            (Trigger::Output { what, .. }, Trigger::Output { what: what2, .. }) => what == what2,
            // The default of one option key, in any op, and that option
            // given: one change of how the key is read.
            (Trigger::Default { key, .. }, Trigger::Default { key: key2, .. })
            | (Trigger::Default { key, .. }, Opt { key: key2, .. })
            | (Opt { key, .. }, Trigger::Default { key: key2, .. }) => key == key2,
            _ => self == other,
        }
    }

    /// When a change shows, as the second half of a cause's title: `when
    /// the input holds option :strict`, `always (no part of the input
    /// makes the two agree)`.
    pub fn when(&self, labels: Labels) -> String {
        let side = |s: &Side| match s {
            Side::Expected => labels.0,
            Side::Actual => labels.1,
        };
        match self {
            Trigger::Field { module, field } => {
                format!("when an answer or the input holds a {module} (its field {field})")
            }
            Trigger::Struct { module } => format!("when the input holds a {module} struct"),
            Trigger::Option { key, .. } => format!("when an option list holds :{key}"),
            Trigger::Impl { modules, .. } => {
                format!("when the input holds a {} struct", modules.join(" or "))
            }
            Trigger::Pairs { op, path } => {
                format!("when the map at {op} args{path} has pairs (any one of them)")
            }
            Trigger::MapKey { class } => format!("when a map key is of class \"{class}\""),
            Trigger::Nested { op, path } => {
                format!("when a map, list or tuple sits inside a list ({op} args{path})")
            }
            Trigger::Value {
                op, path, value, ..
            } => format!("when {op} args{path} is {}", elixir_text(value)),
            Trigger::Refusal { side: s, reason } => {
                format!("when {} declines the input: {reason}", side(s))
            }
            Trigger::Ops { .. } => "always".to_owned(),
            Trigger::Fault { .. } => "when an adapter gives no valid answer".to_owned(),
            Trigger::Char { c, .. } => {
                format!("when a map key or string holds {}", shown_char(*c))
            }
            Trigger::Message { .. } | Trigger::Output { .. } => {
                "always (no part of the input makes the two agree)".to_owned()
            }
            Trigger::Default {
                key, base, head, ..
            } => {
                let known: Vec<String> = [(base, labels.0), (head, labels.1)]
                    .iter()
                    .filter_map(|(v, l)| v.as_ref().map(|v| format!("{v} in {l}")))
                    .collect();
                if known.is_empty() {
                    format!("when option :{key} is left out (its default changed)")
                } else {
                    format!(
                        "when option :{key} is left out (its default: {})",
                        known.join(", ")
                    )
                }
            }
            Trigger::Alone(_) => "no single part of the input explains it".to_owned(),
        }
    }

    /// One line naming the trigger.
    pub fn title(&self, labels: Labels) -> String {
        let side = |s: &Side| match s {
            Side::Expected => labels.0,
            Side::Actual => labels.1,
        };
        match self {
            Trigger::Field { module, field } => format!("struct field {module}.{field}"),
            Trigger::Struct { module } => format!("a {module} struct in the input"),
            Trigger::Option { key, .. } => format!("option :{key}"),
            Trigger::Impl {
                protocol,
                modules,
                lacking,
            } => {
                let has = match lacking {
                    Side::Expected => labels.1,
                    Side::Actual => labels.0,
                };
                format!(
                    "{protocol} implemented for {} in {has} only",
                    modules.join(", ")
                )
            }
            Trigger::MapKey { class } => format!("a map key of class \"{class}\""),
            Trigger::Nested { op, path } => {
                format!("a value inside the list at {op} args{path}")
            }
            Trigger::Pairs { op, path } => {
                format!("the pairs of the map at {op} args{path} (any one of them)")
            }
            Trigger::Value {
                op,
                path,
                of,
                value,
            } => {
                format!("the {of} {value} at {op} args{path}")
            }
            Trigger::Refusal { side: s, reason } => {
                format!("inputs {} declines: {reason}", side(s))
            }
            Trigger::Ops { names, side: s } => {
                format!("op(s) declared by {} only: {}", side(s), names.join(", "))
            }
            Trigger::Char { c, .. } => format!("a {} in a map key or string", shown_char(*c)),
            Trigger::Message { class, parting } => {
                let at = if parting.after.is_empty() {
                    "at its start".to_owned()
                } else {
                    format!("after {:?}", parting.after)
                };
                format!(
                    "the message of {class} changed {at}: {:?} in {}, {:?} in {}",
                    parting.base, labels.0, parting.head, labels.1
                )
            }
            Trigger::Output { what, .. } => {
                format!("no part of the input (every input shows it): {what}")
            }
            Trigger::Default {
                key, base, head, ..
            } => {
                let known: Vec<String> = [(base, labels.0), (head, labels.1)]
                    .iter()
                    .filter_map(|(v, l)| v.as_ref().map(|v| format!("{v} in {l}")))
                    .collect();
                if known.is_empty() {
                    format!("the default of option :{key}")
                } else {
                    format!("the default of option :{key}: {}", known.join(", "))
                }
            }
            Trigger::Alone(kind) => format!("no single trigger: {}", kind.title(labels)),
            Trigger::Fault { side: s } => format!(
                "no valid answer from {} (its adapter's fault, not a difference of behaviour)",
                side(s)
            ),
        }
    }
}

/// A value's tagged JSON in Elixir's notation (`-0.0`, `:rows`), or as
/// it is when it was cut too short to read back.
fn elixir_text(value: &str) -> String {
    match ptc_conformance::tagged::decode_str(value, "") {
        Ok(t) => ptc_conformance::elixir::inspect::inspect(&t),
        Err(_) => value.to_owned(),
    }
}

/// A character as a title shows it: quoted, escaped when it is not
/// printable (`" "`, `"\\t"`, `"\\u{7f}"`).
pub fn shown_char(c: char) -> String {
    format!(
        "\"{}\"",
        crate::review::causes::what::one_line(&c.to_string().replace('\\', "\\\\"))
            .replace('"', "\\\"")
    )
}

/// Whether a value at `path` (tagged JSON `value`) is the option `key`
/// written as a bare atom in a list (`[:strict]`): a malformed entry of
/// that option.
pub fn bare_option(path: &str, value: &str, key: &str) -> bool {
    path.ends_with("/*")
        && value == ptc_conformance::tagged::encode(&ptc_conformance::term::Term::atom(key))
}
