//! Attribution against the reference and an emulated older build.

use super::text::strip_text;
use super::*;
use crate::corpus::Sources;
use crate::review::compare::{compare, CompareConfig};
use crate::review::fuzz::FuzzConfig;
use crate::subject::reference::{Alteration, Altered, Reference};
use crate::subject::Request;
use ptc_conformance::raised::Raised;

fn tool_visibility() -> Shapes {
    [ShapeChange {
        module: "PtcRunner.Tool".into(),
        field: "visibility".into(),
        side: Side::Actual,
    }]
    .into_iter()
    .collect()
}

#[test]
fn a_fields_text_is_removed_with_its_comma_inside_its_struct_only() {
    let shapes = tool_visibility();
    let mut used = Shapes::new();
    let head = "%PtcRunner.Tool{name: nil,\n  visibility: :public,\n  cache: false}";
    assert_eq!(
        strip_text(head, &shapes, &mut used),
        "%PtcRunner.Tool{name:nil,cache:false}"
    );
    assert_eq!(used, shapes);
    let last = "[%PtcRunner.Tool{name: nil, visibility: :private}]";
    assert_eq!(
        strip_text(last, &shapes, &mut used),
        "[%PtcRunner.Tool{name:nil}]"
    );
    // Not among the struct's own fields: kept.
    let nested = "%PtcRunner.Tool{name: %{visibility: :public}}";
    assert_eq!(
        strip_text(nested, &shapes, &mut used),
        "%PtcRunner.Tool{name:%{visibility::public}}"
    );
    let other = "%PtcRunner.Step{visibility: :public}";
    assert!(strip_text(other, &shapes, &mut used).contains("visibility"));
    // A value that is not a literal a default takes: kept.
    let computed = "%PtcRunner.Tool{visibility: [1, 2], cache: false}";
    assert!(strip_text(computed, &shapes, &mut used).contains("visibility"));
}

#[test]
fn texts_agree_up_to_a_cut_and_maps_as_sets_only_where_a_changed_struct_is() {
    let shapes = tool_visibility();
    let mut used = Shapes::new();
    let base = "[%PtcRunner.Tool{name: nil, cache: false}, 1, 2]";
    let head = "[%PtcRunner.Tool{name: nil, visibility: :public, cache: false}, 1, ...]";
    assert_eq!(
        texts_agree(base, head, &shapes, &mut used),
        Agreement::UpToCut
    );
    // A change before the cut is not explained.
    let head = "[%PtcRunner.Tool{name: 1, visibility: :public, cache: false}, ...]";
    assert_eq!(
        texts_agree(base, head, &shapes, &mut used),
        Agreement::Differs
    );
    // Without a changed struct's text, texts are compared as they are.
    assert_eq!(
        texts_agree("[1, 2]", "[1, ...]", &shapes, &mut used),
        Agreement::Differs
    );
    // A map rendering a changed struct: its entries as a set.
    let base = "%{%PtcRunner.Tool{name: nil} => 1, ~N[2024-01-01 00:00:00] => nil}";
    let head =
        "%{~N[2024-01-01 00:00:00] => nil, %PtcRunner.Tool{name: nil, visibility: :public} => 1}";
    assert_eq!(
        texts_agree(base, head, &shapes, &mut used),
        Agreement::Equal
    );
    let head =
        "%{~N[2024-01-01 00:00:00] => 1, %PtcRunner.Tool{name: nil, visibility: :public} => 1}";
    assert_eq!(
        texts_agree(base, head, &shapes, &mut used),
        Agreement::Differs
    );
}

/// v0.13.0 seen through v0.12.0's `PtcRunner.Tool`: the reference with
/// the `visibility` field taken out of every Tool it answers, and out
/// of every Tool it renders in a text or message; an input naming the
/// field is refused as a build without it refuses it. With `planted`,
/// also a real change: a Tool rendered with `cache: true` is rendered
/// with `cache: :yes`.
pub(crate) struct WithoutVisibility {
    pub(crate) planted: bool,
}

fn without_visibility(t: &Term, planted: bool) -> Term {
    let text = |s: &str| {
        let re = regex::Regex::new(r"visibility: :(public|private),\s*").unwrap();
        let s = re.replace_all(s, "").into_owned();
        if planted && s.contains("%PtcRunner.Tool{") {
            s.replace("cache: true", "cache: :yes")
        } else {
            s
        }
    };
    match t {
        Term::Struct(s) => Term::Struct(Box::new(Struct {
            module: s.module.clone(),
            fields: s
                .fields
                .iter()
                .filter(|(n, _)| !(s.module == "PtcRunner.Tool" && n == "visibility"))
                .map(|(n, v)| (n.clone(), without_visibility(v, planted)))
                .collect(),
        })),
        Term::List(xs) => Term::List(xs.iter().map(|x| without_visibility(x, planted)).collect()),
        Term::Tuple(xs) => Term::Tuple(xs.iter().map(|x| without_visibility(x, planted)).collect()),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| {
                    (
                        without_visibility(k, planted),
                        without_visibility(v, planted),
                    )
                })
                .collect(),
        ),
        Term::Str(s) => Term::Str(text(s)),
        other => other.clone(),
    }
}

fn names_visibility(t: &Term) -> bool {
    match t {
        Term::Struct(s) => {
            (s.module == "PtcRunner.Tool" && s.fields.iter().any(|(n, _)| n == "visibility"))
                || s.fields.iter().any(|(_, v)| names_visibility(v))
        }
        Term::List(xs) | Term::Tuple(xs) => xs.iter().any(names_visibility),
        Term::Map(m) => m
            .iter()
            .any(|(k, v)| names_visibility(k) || names_visibility(v)),
        _ => false,
    }
}

impl Alteration for WithoutVisibility {
    fn name(&self) -> String {
        "reference without Tool.visibility".into()
    }
    fn alter(&mut self, r: Request<'_>, answer: Answer) -> Answer {
        if r.args.iter().any(names_visibility) {
            return Answer::Unsupported(
                "cannot decode args: PtcRunner.Tool has no field \"visibility\"".into(),
            );
        }
        match answer {
            Answer::Ok(t) => Answer::Ok(without_visibility(&t, self.planted)),
            Answer::Raised(x) => Answer::Raised(Raised {
                class: x.class,
                message: match without_visibility(&Term::Str(x.message), self.planted) {
                    Term::Str(m) => m,
                    _ => unreachable!("a string stays a string"),
                },
            }),
            other => other,
        }
    }
}

#[test]
fn echoes_of_a_struct_change_are_counted_under_it_and_a_real_change_stays_a_kind() {
    let corpus = crate::corpus::load_clean(&Sources::embedded()).unwrap();
    let ops = [
        "term.inspect",
        "tool.new",
        "protocol.validate_program",
        "exposure.filter_by_expose",
    ];
    let cases: Vec<&crate::corpus::Case> = corpus
        .cases
        .iter()
        .filter(|c| ops.contains(&c.op.name))
        .collect();
    let run = |planted: bool| {
        let mut fuzz = FuzzConfig::new(7);
        fuzz.ops = ops.iter().map(|o| (*o).to_owned()).collect();
        fuzz.cases_per_op = 300;
        let cfg = CompareConfig {
            strictness: crate::judging::outcome::Strictness::Default,
            emit: None,
            fuzz: Some(fuzz),
            alone: false,
        };
        let mut base = Altered(WithoutVisibility { planted });
        let c = compare(
            &mut base,
            &mut Reference::default(),
            &cases,
            &corpus.cases,
            &cfg,
            &mut |_| {},
        )
        .unwrap();
        let titles: Vec<String> = c
            .groups
            .iter()
            .map(|g| g.kind.title(("base", "head")))
            .collect();
        let also: Vec<(String, bool, usize, usize)> = c.groups[0]
            .also
            .iter()
            .map(|a| (a.op.to_owned(), a.refused, a.cases.len(), a.generated))
            .collect();
        (titles, also, c.explained())
    };
    let (titles, also, (cases_explained, _)) = run(false);
    // The change itself, once; its echoes under it: in answers (a Tool
    // inside a result), in inspect text and in messages, and refusals.
    assert_eq!(
        titles,
        ["struct PtcRunner.Tool: field visibility only in head"],
        "{also:?}"
    );
    let seen = |op: &str, refused: bool| {
        also.iter()
            .find(|a| a.0 == op && a.1 == refused)
            .map_or(0, |a| a.2 + a.3)
    };
    assert!(seen("term.inspect", false) > 0, "{also:?}");
    assert!(seen("protocol.validate_program", false) > 0, "{also:?}");
    assert!(seen("tool.new", true) > 0, "{also:?}");
    assert!(cases_explained > 0);
    // A real change in the same texts is not explained: its own kind.
    let (titles, _, _) = run(true);
    assert!(
        titles.iter().any(|t| t.starts_with("term.inspect at /")),
        "{titles:?}"
    );
    assert_eq!(
        titles[0],
        "struct PtcRunner.Tool: field visibility only in head"
    );
}
