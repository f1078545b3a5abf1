//! Refusals: inputs a side declines (`unsupported`) are counted by op and
//! reason, never dropped silently. A refusal of a struct field the side's
//! build lacks (`PtcRunner.Tool has no field "visibility"`) is the one a
//! comparison can work around: the input is retried without that field,
//! and a field neither side's struct has is learned once ([`probe`]) and
//! left out of every generated input, so generators write no field that
//! neither build knows.

use super::FuzzReport;
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::ops::Op;
use ptc_conformance::structs::{default_of, KNOWN};
use ptc_conformance::term::{FunSpec, Struct, Term};
use std::collections::{BTreeMap, BTreeSet};

/// A struct field, as `(module, field)`.
pub type Field = (String, String);

/// Declined requests, by side label, op and reason ([`reason_label`]).
pub type Declines = BTreeMap<(&'static str, &'static str, String), usize>;

/// A refusal's reason as reports group it: without the `/args/...: `
/// location a decoder puts in front (the same refusal anywhere in the
/// args is one reason).
pub fn reason_label(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    for part in reason.split(": ") {
        if part.starts_with("/args") {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(part);
    }
    out
}

/// The struct field a refusal names as missing from the refusing build
/// (`... M has no field "f"`, as the reference and the Elixir adapter
/// word it), if it names one.
pub fn missing_field(reason: &str) -> Option<Field> {
    let at = reason.find(" has no field ")?;
    let module = reason[..at].rsplit([' ', ':']).next()?.trim();
    let rest = &reason[at + " has no field ".len()..];
    let field = rest.trim().trim_matches('"');
    let field = field.split('"').next()?;
    (!module.is_empty() && !field.is_empty()).then(|| (module.to_owned(), field.to_owned()))
}

/// Whether `t` names one of `fields` in a struct it holds.
pub fn names_any(t: &Term, fields: &BTreeSet<Field>) -> bool {
    match t {
        Term::Struct(s) => s
            .fields
            .iter()
            .any(|(n, v)| fields.contains(&(s.module.clone(), n.clone())) || names_any(v, fields)),
        Term::List(xs) | Term::Tuple(xs) => xs.iter().any(|x| names_any(x, fields)),
        Term::Map(m) => m
            .iter()
            .any(|(k, v)| names_any(k, fields) || names_any(v, fields)),
        Term::Fun(f) => {
            matches!(&**f, FunSpec::Returns { returns, .. } if names_any(returns, fields))
        }
        _ => false,
    }
}

/// `t` without `fields` in any struct it holds (the struct then takes the
/// build's default for them).
pub fn strip(t: &Term, fields: &BTreeSet<Field>) -> Term {
    match t {
        Term::Struct(s) => Term::Struct(Box::new(Struct {
            module: s.module.clone(),
            fields: s
                .fields
                .iter()
                .filter(|(n, _)| !fields.contains(&(s.module.clone(), n.clone())))
                .map(|(n, v)| (n.clone(), strip(v, fields)))
                .collect(),
        })),
        Term::List(xs) => Term::List(xs.iter().map(|x| strip(x, fields)).collect()),
        Term::Tuple(xs) => Term::Tuple(xs.iter().map(|x| strip(x, fields)).collect()),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (strip(k, fields), strip(v, fields)))
                .collect(),
        ),
        Term::Fun(f) => Term::Fun(Box::new(match &**f {
            FunSpec::Returns { arity, returns } => FunSpec::Returns {
                arity: *arity,
                returns: strip(returns, fields),
            },
            other => other.clone(),
        })),
        other => other.clone(),
    }
}

/// `args` without `fields`, or `None` when they name none of them.
pub fn stripped(args: &[Term], fields: &BTreeSet<Field>) -> Option<Vec<Term>> {
    (!fields.is_empty() && args.iter().any(|a| names_any(a, fields)))
        .then(|| args.iter().map(|a| strip(a, fields)).collect())
}

/// The fields of the structs the generators write (`structs::KNOWN`) that
/// `subject`'s build lacks, learned from its answers: one request of `op`
/// per field, whose argument is the struct with that field alone; a
/// refusal naming the field means the build's struct lacks it. Pipelined,
/// one batch.
pub fn probe(subject: &mut dyn Subject, op: &str) -> BTreeSet<Field> {
    let fields: Vec<(&str, &str)> = KNOWN
        .iter()
        .flat_map(|(m, fs)| fs.iter().map(move |(f, _)| (*m, *f)))
        .collect();
    let args: Vec<Vec<Term>> = fields
        .iter()
        .map(|(m, f)| {
            let value = default_of(m, f).unwrap_or(Term::Nil);
            vec![Term::Struct(Box::new(Struct {
                module: (*m).to_owned(),
                fields: vec![((*f).to_owned(), value)],
            }))]
        })
        .collect();
    let requests: Vec<Request<'_>> = args.iter().map(|a| Request::new(op, a)).collect();
    let answers = subject.call_many(&requests);
    fields
        .iter()
        .zip(answers)
        .filter_map(|((m, f), a)| match a {
            Answer::Unsupported(r) => missing_field(&r)
                .filter(|(rm, rf)| rm == m && rf == f)
                .map(|_| ((*m).to_owned(), (*f).to_owned())),
            _ => None,
        })
        .collect()
}

/// Learns which struct fields the generators know each side's build
/// lacks ([`probe`]): those neither has are left out of every
/// input, those one side lacks make its refusals retried without them.
pub(super) fn learn_fields(
    expected: &mut dyn Subject,
    subject: &mut dyn Subject,
    op: &str,
    labels: crate::review::kinds::Labels,
    report: &mut FuzzReport,
) {
    let (e, a) = (probe(expected, op), probe(subject, op));
    report.unknown_fields = e.intersection(&a).cloned().collect();
    for (label, lacks) in [(labels.0, e), (labels.1, a)] {
        let only: std::collections::BTreeSet<Field> =
            lacks.difference(&report.unknown_fields).cloned().collect();
        if !only.is_empty() {
            report.lacking.insert(label, only);
        }
    }
}

/// Counts the batch's refusals by side, op and reason, and retries each
/// input declined for naming a struct field a side lacks without that
/// field (and the others either side lacks): the retried inputs with both
/// answers, by index. A field both sides refuse is learned as unknown to
/// both and left out of later inputs.
#[allow(clippy::type_complexity)]
pub(super) fn retry_refused(
    sides: &mut super::sides::Sides,
    op: &'static Op,
    inputs: &[Vec<Term>],
    (e, a): (&[Answer], &[Answer]),
    labels: crate::review::kinds::Labels,
    report: &mut FuzzReport,
) -> Vec<(usize, Vec<Term>, Answer, Answer)> {
    let mut fields: std::collections::BTreeSet<Field> =
        report.lacking.values().flatten().cloned().collect();
    let mut retry = Vec::new();
    for i in 0..inputs.len() {
        let mut named = Vec::new();
        for (label, answer) in [(labels.0, &e[i]), (labels.1, &a[i])] {
            if let Answer::Unsupported(r) = answer {
                let reason = reason_label(r);
                named.push(missing_field(&reason));
                *report.declines.entry((label, op.name, reason)).or_default() += 1;
            }
        }
        if let [Some(x), Some(y)] = &named[..] {
            if x == y {
                report.unknown_fields.insert(x.clone());
            }
        }
        fields.extend(named.iter().flatten().cloned());
        if named.iter().any(Option::is_some) {
            retry.push(i);
        }
    }
    fields.extend(report.unknown_fields.iter().cloned());
    let retried: Vec<(usize, Vec<Term>)> = retry
        .into_iter()
        .filter_map(|i| Some((i, stripped(&inputs[i], &fields)?)))
        .collect();
    if retried.is_empty() {
        return Vec::new();
    }
    let ((re, ra), (te, ta)) = sides.ask(
        op.name,
        retried.iter().map(|(_, args)| args.clone()).collect(),
    );
    report.answering.0 += te;
    report.answering.1 += ta;
    report.retried += retried.len();
    retried
        .into_iter()
        .zip(re.into_iter().zip(ra))
        .map(|((i, args), (e, a))| (i, args, e, a))
        .collect()
}

/// Whether a side that declined `args` does not declare a feature they
/// use: a refusal its declared features explain (and which `compare`
/// reports once, as a feature only one side declares).
pub(super) fn needs_undeclared(
    args: &[Term],
    (e, a): (&Answer, &Answer),
    (fe, fa): &(
        std::collections::BTreeSet<String>,
        std::collections::BTreeSet<String>,
    ),
) -> bool {
    let declared = match (e, a) {
        (Answer::Unsupported(_), _) => fe,
        (_, Answer::Unsupported(_)) => fa,
        _ => return false,
    };
    let mut used = std::collections::BTreeSet::new();
    args.iter()
        .for_each(|t| ptc_conformance::features::used_by(t, &mut used));
    used.iter().any(|f| !declared.contains(*f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_drop_their_location_and_name_the_missing_field() {
        let r = "cannot decode args: /args/1/0/$struct/fields: PtcRunner.Tool has no field \"nam\"";
        assert_eq!(
            reason_label(r),
            "cannot decode args: PtcRunner.Tool has no field \"nam\""
        );
        assert_eq!(
            missing_field(r),
            Some(("PtcRunner.Tool".into(), "nam".into()))
        );
        assert_eq!(missing_field("unknown op \"x\""), None);
    }

    #[test]
    fn stripping_leaves_out_the_field_at_any_depth() {
        let tool = |fields: Vec<(&str, Term)>| {
            Term::Struct(Box::new(Struct {
                module: "PtcRunner.Tool".into(),
                fields: fields.into_iter().map(|(n, v)| (n.to_owned(), v)).collect(),
            }))
        };
        let args = vec![Term::List(vec![tool(vec![
            ("name", Term::str("t")),
            ("visibility", Term::atom("public")),
        ])])];
        let set: BTreeSet<Field> = [("PtcRunner.Tool".to_owned(), "visibility".to_owned())]
            .into_iter()
            .collect();
        let out = stripped(&args, &set).expect("names it");
        assert_eq!(
            out,
            vec![Term::List(vec![tool(vec![("name", Term::str("t"))])])]
        );
        assert_eq!(stripped(&out, &set), None);
    }
}
