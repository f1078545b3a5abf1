//! The porter data (`spec/data/`), rendered from the reference's own
//! constants: struct definitions (`src/model/structs.rs`), message
//! templates (`src/elixir/messages.rs`) and the Unicode tables of the
//! identifier tokenizer and the grapheme splitter. Each file must equal
//! what the reference renders; a difference fails with the first differing
//! line. `UPDATE_PORTER_DATA=1 cargo test --test porter_data` rewrites them
//! (expect-test style).
//!
//! A template's `rules` are computed, not written by hand: the spec rules
//! cited by the golden cases whose expected message the template renders
//! (a whole message for an exception's template, a part of one for a
//! fragment).

use ptc_conformance::chars::URI_DEFAULT_PORTS;
use ptc_conformance::elixir::identifier::{tables as ident, Ascii};
use ptc_conformance::elixir::messages::{self, Template};
use ptc_conformance::elixir::string::{self as strings, tables as graph};
use ptc_conformance::ptc::protocol::PROFILES;
use ptc_conformance::{structs, tagged};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The repository root (this crate's manifest is `src/Cargo.toml`).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|e| panic!("a &str always serializes: {e}"))
}

/// The copies of `spec/data/` the SDK packages ship, so that an installed
/// SDK finds its data with no kit beside it (their own tests read them).
const SDK_COPIES: [&str; 2] = ["sdk/js/data", "sdk/python/ptc_sdk/data"];

/// Writes `want` to `path` (relative to the repository), creating its directory.
fn write(path: &str, want: &str) {
    let file = root().join(path);
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("creating {dir:?}: {e}"));
    }
    std::fs::write(&file, want).unwrap_or_else(|e| panic!("writing {path}: {e}"));
}

/// Compares `path` (relative to the repository) with `want`, or rewrites
/// it (and the SDKs' copies of a `spec/data/` file) when
/// `UPDATE_PORTER_DATA` is set.
fn check(path: &str, want: &str) {
    if std::env::var_os("UPDATE_PORTER_DATA").is_some() {
        write(path, want);
        if let Some(rest) = path.strip_prefix("spec/data/") {
            for copy in SDK_COPIES {
                write(&format!("{copy}/{rest}"), want);
            }
        }
        return;
    }
    let file = root().join(path);
    let have = std::fs::read_to_string(&file).unwrap_or_default();
    if have == want {
        return;
    }
    let line = have
        .lines()
        .zip(want.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
    panic!(
        "{path} differs from what the reference renders, first at line {}:\n  file:      {}\n  reference: {}\n\
         (to accept the reference's: UPDATE_PORTER_DATA=1 cargo test --test porter_data)",
        line + 1,
        have.lines().nth(line).unwrap_or("<end of file>"),
        want.lines().nth(line).unwrap_or("<end of file>"),
    );
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {dir:?}: {e}"));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("reading {dir:?}: {e}"))
                .path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if let Ok(rel) = path.strip_prefix(base) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The SDKs' copies are `spec/data/`, file for file and byte for byte
/// (`UPDATE_PORTER_DATA=1` copies it again).
#[test]
fn sdk_copies_are_spec_data() {
    let spec = root().join("spec/data");
    let want = files_under(&spec);
    for copy in SDK_COPIES {
        if std::env::var_os("UPDATE_PORTER_DATA").is_some() {
            let _ = std::fs::remove_dir_all(root().join(copy));
            for f in &want {
                let text = std::fs::read_to_string(spec.join(f))
                    .unwrap_or_else(|e| panic!("reading spec/data/{f}: {e}"));
                write(&format!("{copy}/{f}"), &text);
            }
            continue;
        }
        assert_eq!(
            files_under(&root().join(copy)),
            want,
            "{copy} holds other files than spec/data (UPDATE_PORTER_DATA=1 cargo test --test porter_data copies them)"
        );
        for f in &want {
            let a = std::fs::read(spec.join(f)).unwrap_or_default();
            let b = std::fs::read(root().join(copy).join(f)).unwrap_or_default();
            assert!(
                a == b,
                "{copy}/{f} differs from spec/data/{f} (UPDATE_PORTER_DATA=1 cargo test --test porter_data copies it)"
            );
        }
    }
}

// ---- structs.json ------------------------------------------------------

fn render_structs() -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"The structs of the boundary as PtcRunner v0.13.0 defines them (Elixir 1.18.4): \
         each module's fields in defstruct order, which inspect/1 shows, with their defaults as tagged \
         term JSON (spec/terms.md); inspect_optional lists the fields a derived Inspect leaves out while \
         they hold their default. A field with \\\"since\\\" came in that release: an older release's \
         struct lacks it (spec/releases.md REL-1; every other field, default and module is the same in \
         v0.11.0, v0.12.0 and v0.13.0). Generated from the reference; a test holds it equal.\",\n",
    );
    out.push_str("  \"structs\": [\n");
    for (i, (module, fields)) in structs::KNOWN.iter().enumerate() {
        let _ = writeln!(
            out,
            "    {{\n      \"module\": {},\n      \"fields\": [",
            json(module)
        );
        for (j, (name, _)) in fields.iter().enumerate() {
            let default = structs::default_of(module, name)
                .unwrap_or_else(|| panic!("{module}.{name} has a default"));
            let comma = if j + 1 < fields.len() { "," } else { "" };
            let since = structs::FIELDS_SINCE
                .iter()
                .find(|(m, f, _)| m == module && f == name)
                .map(|(_, _, r)| format!(", \"since\": {}", json(r.version())))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "        {{\"name\": {}, \"default\": {}{since}}}{comma}",
                json(name),
                tagged::encode(&default)
            );
        }
        let optional: Vec<String> = fields
            .iter()
            .filter(|(f, _)| structs::is_optional(module, f))
            .map(|(f, _)| json(f))
            .collect();
        let comma = if i + 1 < structs::KNOWN.len() {
            ","
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "      ],\n      \"inspect_optional\": [{}]\n    }}{comma}",
            optional.join(", ")
        );
    }
    out.push_str("  ]\n}\n");
    out
}

#[test]
fn structs_json() {
    check("spec/data/structs.json", &render_structs());
}

// ---- messages.json -----------------------------------------------------

/// `(spec rules, class, message)` of every golden case that expects an
/// exception, and `(spec rules, "", text)` of those that expect a string.
fn raised_cases() -> Vec<(Vec<String>, String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {dir:?}: {e}"));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("reading {dir:?}: {e}"))
                .path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("golden"), &mut files);
    assert!(!files.is_empty(), "no case files under golden/");
    files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("reading {f:?}: {e}"));
            let v: serde_json::Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            let expect = v.get("expect")?;
            // A string answer is searched for fragments (an `#Inspect.Error<...>` in a text).
            let (class, message) = match (expect.get("raised"), expect.get("ok")) {
                (Some(r), _) => (r.get("class")?.as_str()?, r.get("message")?.as_str()?),
                (None, Some(serde_json::Value::String(text))) => ("", text.as_str()),
                _ => return None,
            };
            let spec = v
                .get("spec")?
                .as_array()?
                .iter()
                .filter_map(|r| r.as_str().map(str::to_owned))
                .collect();
            Some((spec, class.to_owned(), message.to_owned()))
        })
        .collect()
}

/// The placeholder names `t`'s text uses, in order of first use.
fn names(t: &Template) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    let mut rest = t.text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(after.len());
        if len > 0 && after[len..].starts_with('}') && !names.contains(&&after[..len]) {
            names.push(&after[..len]);
        }
        rest = after;
    }
    names
}

/// Each template's placeholders are exactly the ones it describes, so
/// `messages.json` says what every placeholder holds.
#[test]
fn placeholders_are_exactly_the_ones_described() {
    for t in messages::ALL {
        let described: Vec<&str> = t.placeholders.iter().map(|(n, _)| *n).collect();
        assert_eq!(names(t), described, "template {}", t.id);
    }
}

/// A pattern matching what `t` renders: its literal parts in order, any
/// text for each placeholder; anchored for an exception's whole message.
fn pattern(t: &Template) -> regex::Regex {
    let values: Vec<(&str, String)> = names(t)
        .iter()
        .map(|n| (*n, format!("\u{0}{n}\u{0}")))
        .collect();
    let refs: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let rendered = t.render(&refs);
    let mut re = String::from("(?s)");
    if t.class.is_some() {
        re.push('^');
    }
    for (i, part) in rendered.split('\u{0}').enumerate() {
        re.push_str(&if i % 2 == 0 {
            regex::escape(part)
        } else {
            ".*?".to_owned()
        });
    }
    if t.class.is_some() {
        re.push('$');
    }
    regex::Regex::new(&re).unwrap_or_else(|e| panic!("pattern of {}: {e}", t.id))
}

fn rule_key(r: &str) -> (String, u32) {
    let (prefix, n) = r.rsplit_once('-').unwrap_or((r, "0"));
    (prefix.to_owned(), n.parse().unwrap_or(0))
}

fn render_messages() -> String {
    let cases = raised_cases();
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"The exception texts a port must reproduce, as templates (Elixir 1.18.4, OTP 25, \
         Jason 1.4, PtcRunner v0.13.0). A placeholder is { + a lower-case name + }; any other brace is \
         literal. class is the exception's module without Elixir., or null for a fragment other \
         templates embed. rules are the spec rules of the golden cases whose expected message the \
         template renders. Generated from the reference by UPDATE_PORTER_DATA=1 cargo test --test porter_data, which holds it equal.\",\n",
    );
    out.push_str("  \"messages\": [\n");
    for (i, t) in messages::ALL.iter().enumerate() {
        let re = pattern(t);
        let mut rules: BTreeSet<(String, u32)> = BTreeSet::new();
        for (spec, class, message) in &cases {
            let hit = match t.class {
                Some(c) => c == class && re.is_match(message),
                None => re.is_match(message),
            };
            if hit {
                rules.extend(spec.iter().map(|r| rule_key(r)));
            }
        }
        let rules: Vec<String> = rules
            .iter()
            .map(|(p, n)| json(&format!("{p}-{n}")))
            .collect();
        let placeholders: Vec<String> = t
            .placeholders
            .iter()
            .map(|(n, what)| format!("        {}: {}", json(n), json(what)))
            .collect();
        let _ = write!(
            out,
            "    {{\n      \"id\": {},\n      \"class\": {},\n      \"template\": {},\n      \"placeholders\": {{{}}},\n      \"source\": {},\n      \"rules\": [{}]\n    }}",
            json(t.id),
            t.class.map_or("null".to_owned(), json),
            json(t.text),
            if placeholders.is_empty() {
                String::new()
            } else {
                format!("\n{}\n      ", placeholders.join(",\n"))
            },
            json(t.source),
            rules.join(", "),
        );
        out.push_str(if i + 1 < messages::ALL.len() {
            ",\n"
        } else {
            "\n"
        });
    }
    out.push_str("  ]\n}\n");
    out
}

#[test]
fn messages_json() {
    check("spec/data/messages.json", &render_messages());
}

/// Every template the spec names (`template \`id\``) exists.
#[test]
fn templates_the_spec_cites_exist() {
    let cite = regex::Regex::new(r"template\s+`([a-z_]+)`").unwrap_or_else(|e| panic!("{e}"));
    let mut seen = 0;
    for entry in std::fs::read_dir(root().join("spec")).unwrap_or_else(|e| panic!("spec/: {e}")) {
        let path = entry.unwrap_or_else(|e| panic!("spec/: {e}")).path();
        if path.extension().and_then(|e| e.to_str()) != Some("md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        for c in cite.captures_iter(&text) {
            seen += 1;
            assert!(
                messages::ALL.iter().any(|t| t.id == &c[1]),
                "{path:?} cites template {} which src/elixir/messages.rs does not define",
                &c[1]
            );
        }
    }
    assert!(seen > 0, "the spec cites no template");
}

// ---- unicode/*.json ----------------------------------------------------

fn ranges3(out: &mut String, name: &str, about: &str, rows: &[(u32, u32, u16)], last: bool) {
    let _ = writeln!(
        out,
        "    {}: {{\n      \"about\": {},\n      \"ranges\": [",
        json(name),
        json(about)
    );
    for (i, (lo, hi, m)) in rows.iter().enumerate() {
        let comma = if i + 1 < rows.len() { "," } else { "" };
        let _ = writeln!(out, "        [{lo}, {hi}, {m}]{comma}");
    }
    let _ = writeln!(out, "      ]\n    }}{}", if last { "" } else { "," });
}

fn mask_names(mask: &[u64]) -> Vec<String> {
    ident::SCRIPT_SETS
        .iter()
        .enumerate()
        .filter(|(i, _)| mask[i / 64] >> (i % 64) & 1 == 1)
        .map(|(_, n)| json(n))
        .collect()
}

fn render_identifier() -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"The identifier classes and script sets of Elixir 1.18.4's String.Tokenizer \
         (Unicode 15.1), which decide whether inspect/1 quotes an atom (spec/inspect.md IN-4). Code \
         points are decimal; ranges are [first, last, script_set] with both ends included, sorted, \
         for code points above 127 only (ascii gives the ASCII characters). script_set indexes script_sets: the \
         scripts a character may be written in (all of them for Common and Inherited characters). \
         A code point is looked up in start, then upper, then continue. micro_script_set is the set \
         of U+03BC, which U+00B5 is read as. Generated from the reference by UPDATE_PORTER_DATA=1 cargo test --test porter_data, which holds it equal.\",\n",
    );
    out.push_str("  \"script_sets\": [\n");
    for (i, m) in ident::MASKS.iter().enumerate() {
        let comma = if i + 1 < ident::MASKS.len() { "," } else { "" };
        let _ = writeln!(out, "    [{}]{comma}", mask_names(m).join(", "));
    }
    out.push_str("  ],\n");
    let _ = writeln!(out, "  \"micro_script_set\": {},", ident::MU);
    out.push_str("  \"ascii\": {\n    \"about\": \"How the tokenizer reads each ASCII character (IN-4). starts: the kind of token it starts (null: it cannot start one); latin: its script is Latin alone (else it has every script, so it never breaks a common script); role: continue (read as part of the token), at (part of the token, and marks it: an identifier with @ prints unquoted whatever its normal form), end (ends the token, taking part in it; the token is whole only if nothing follows), stop (ends the token before it).\",\n    \"classes\": [\n");
    let mut rows: Vec<(u32, u32, Ascii)> = Vec::new();
    for c in 0..=127u32 {
        let a = Ascii::of(c).unwrap_or_else(|| panic!("{c} is ASCII"));
        match rows.last_mut() {
            Some((_, hi, k)) if *k == a && *hi + 1 == c => *hi = c,
            _ => rows.push((c, c, a)),
        }
    }
    for (i, (lo, hi, a)) in rows.iter().enumerate() {
        let starts = match a.starts() {
            Some(k) => json(&format!("{k:?}").to_lowercase()),
            None => "null".to_owned(),
        };
        let role = match a {
            Ascii::At => "at",
            Ascii::End => "end",
            Ascii::Stop => "stop",
            _ => "continue",
        };
        let comma = if i + 1 < rows.len() { "," } else { "" };
        let _ = writeln!(
            out,
            "      {{\"range\": [{lo}, {hi}], \"class\": {}, \"starts\": {starts}, \"latin\": {}, \"role\": {}}}{comma}",
            json(a.name()),
            a.latin(),
            json(role)
        );
    }
    out.push_str("    ]\n  },\n");
    out.push_str("  \"classes\": {\n");
    ranges3(&mut out, "upper", "Upper-case and title-case letters (Lu, Lt): a token starting with one is of kind :atom and prints unquoted.", ident::UPPER, false);
    ranges3(&mut out, "start", "Other letters and letter numbers (Ll, Lm, Lo, Nl, Other_ID_Start): may start an identifier.", ident::START, false);
    ranges3(
        &mut out,
        "continue",
        "Marks, digits and connectors (Mn, Mc, Nd, Pc, Other_ID_Continue): may continue one.",
        ident::CONTINUE,
        true,
    );
    out.push_str("  }\n}\n");
    out
}

fn render_normalization() -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"OTP 25's canonical normalization data (unicode_util, Unicode 14.0), which \
         :unicode.characters_to_nfc_list/1 uses one grapheme cluster at a time (spec/inspect.md \
         IN-4). Code points are decimal. combining_classes: [code point, class] for every non-zero \
         class; decompositions: [code point, [[class, code point], ...]], full and canonical; \
         compositions: [first, second, composite], sorted. Hangul syllables (U+AC00..U+D7A3) \
         decompose and compose arithmetically and are not listed. Generated from the reference by UPDATE_PORTER_DATA=1 cargo test --test porter_data, which holds it equal.\",\n",
    );
    out.push_str("  \"combining_classes\": [\n");
    for (i, (c, k)) in ident::CCC.iter().enumerate() {
        let comma = if i + 1 < ident::CCC.len() { "," } else { "" };
        let _ = writeln!(out, "    [{c}, {k}]{comma}");
    }
    out.push_str("  ],\n  \"decompositions\": [\n");
    for (i, (c, d)) in ident::DECOMP.iter().enumerate() {
        let comma = if i + 1 < ident::DECOMP.len() { "," } else { "" };
        let parts: Vec<String> = d.iter().map(|(k, x)| format!("[{k}, {x}]")).collect();
        let _ = writeln!(out, "    [{c}, [{}]]{comma}", parts.join(", "));
    }
    out.push_str("  ],\n  \"compositions\": [\n");
    for (i, (a, b, c)) in ident::PAIRS.iter().enumerate() {
        let comma = if i + 1 < ident::PAIRS.len() { "," } else { "" };
        let _ = writeln!(out, "    [{a}, {b}, {c}]{comma}");
    }
    out.push_str("  ]\n}\n");
    out
}

fn ranges2(out: &mut String, name: &str, rows: &[(u32, u32)], last: bool) {
    let pairs: Vec<String> = rows.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
    let _ = writeln!(
        out,
        "  {}: [{}]{}",
        json(name),
        pairs.join(", "),
        if last { "" } else { "," }
    );
}

/// Sorted code points as `[first, last]` runs.
fn runs(cps: &[u32]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &c in cps {
        match out.last_mut() {
            Some((_, hi)) if *hi + 1 == c => *hi = c,
            _ => out.push((c, c)),
        }
    }
    out
}

fn render_grapheme() -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"The character classes of OTP 25.2's grapheme segmentation (unicode_util:gc/1, \
         Unicode 14.0), which String.length/1 and String.slice/3 count with (spec/ptc_tool_protocol_from_step.md \
         PP-105). Code points are decimal; ranges are [first, last], both ends included, sorted. \
         latin1_control and latin1_extended_pictographic classify code points below 256; first \
         classifies a cluster's first character from U+0100 on (others extend); extend is is_extend/1 \
         (ZWJ, U+200D, extends too); extended_pictographic is is_ext_pict/1; control is is_control/1, \
         checked after a prepend character; hangul_l, hangul_v and hangul_t are the jamo that continue \
         a Hangul syllable; hangul_lv and hangul_lvt are the precomposed syllables U+AC00..U+D7A3, \
         LV (one every 28 code points, listed one by one) and LVT (ranges). The algorithm that uses \
         them is PP-105's. Generated from the reference by UPDATE_PORTER_DATA=1 cargo test --test porter_data, which holds it equal.\",\n",
    );
    let list = |xs: &[u32]| xs.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        out,
        "  \"latin1_control\": [{}],",
        list(graph::LATIN1_CONTROL)
    );
    let _ = writeln!(
        out,
        "  \"latin1_extended_pictographic\": [{}],",
        list(graph::LATIN1_PICT)
    );
    out.push_str("  \"first\": [\n");
    for (i, (lo, hi, class)) in graph::FIRST.iter().enumerate() {
        let comma = if i + 1 < graph::FIRST.len() { "," } else { "" };
        let _ = writeln!(out, "    [{lo}, {hi}, {}]{comma}", json(class.name()));
    }
    out.push_str("  ],\n");
    ranges2(&mut out, "extend", graph::EXTEND, false);
    ranges2(&mut out, "extended_pictographic", graph::EXT_PICT, false);
    ranges2(&mut out, "control", graph::CONTROL, false);
    ranges2(&mut out, "hangul_l", graph::HANGUL_L, false);
    ranges2(&mut out, "hangul_v", graph::HANGUL_V, false);
    ranges2(&mut out, "hangul_t", graph::HANGUL_T, false);
    let (first, last) = strings::HANGUL_SYLLABLES;
    let (lv, lvt): (Vec<u32>, Vec<u32>) =
        (first..=last).partition(|&c| strings::syllable(c) == Some(true));
    let lvt_runs = runs(&lvt);
    let _ = writeln!(out, "  \"hangul_lv\": [{}],", list(&lv));
    ranges2(&mut out, "hangul_lvt", &lvt_runs, true);
    out.push_str("}\n");
    out
}

// ---- profiles.json, uri.json -----------------------------------------

fn render_profiles() -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"The description string of each capability profile, as PtcRunner v0.13.0's \
         PtcToolProtocol.tool_description/1 returns it (spec/ptc_tool_protocol.md PP-1): profile is the \
         atom's name, description the exact text (one line, UTF-8, no trailing newline). Generated from \
         the reference by UPDATE_PORTER_DATA=1 cargo test --test porter_data, which holds it equal.\",\n",
    );
    out.push_str("  \"profiles\": [\n");
    for (i, (name, text)) in PROFILES.iter().enumerate() {
        let comma = if i + 1 < PROFILES.len() { "," } else { "" };
        let _ = writeln!(
            out,
            "    {{\"profile\": {}, \"description\": {}}}{comma}",
            json(name),
            json(text)
        );
    }
    out.push_str("  ]\n}\n");
    out
}

fn render_uri() -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"URI.default_port/1 of Elixir 1.18.4: the schemes with a default port. URI's \
         String.Chars leaves the port out of a URI's text when it equals its scheme's default (scheme \
         compared byte for byte, case included; spec/lisp_formatter.md LF-9). Generated from the \
         reference by UPDATE_PORTER_DATA=1 cargo test --test porter_data, which holds it equal.\",\n",
    );
    out.push_str("  \"default_ports\": {");
    let rows: Vec<String> = URI_DEFAULT_PORTS
        .iter()
        .map(|(scheme, port)| format!("{}: {port}", json(scheme)))
        .collect();
    out.push_str(&rows.join(", "));
    out.push_str("}\n}\n");
    out
}

#[test]
fn profiles_json() {
    check("spec/data/profiles.json", &render_profiles());
}

#[test]
fn uri_json() {
    check("spec/data/uri.json", &render_uri());
}

#[test]
fn unicode_identifier_json() {
    check("spec/data/unicode/identifier.json", &render_identifier());
}

#[test]
fn unicode_normalization_json() {
    check(
        "spec/data/unicode/normalization.json",
        &render_normalization(),
    );
}

#[test]
fn unicode_grapheme_json() {
    check("spec/data/unicode/grapheme.json", &render_grapheme());
}

/// Every file rendered is valid JSON.
#[test]
fn rendered_files_are_json() {
    for (name, text) in [
        ("structs", render_structs()),
        ("messages", render_messages()),
        ("identifier", render_identifier()),
        ("normalization", render_normalization()),
        ("grapheme", render_grapheme()),
        ("profiles", render_profiles()),
        ("uri", render_uri()),
    ] {
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap_or_else(|e| panic!("{name} renders invalid JSON: {e}"));
    }
}

// ---- atoms.json --------------------------------------------------------

fn render_atoms() -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"about\": \"The atoms every VM that runs PtcRunner v0.13.0's PtcToolProtocol.atomize_value/2 \
         already has (spec/json_handler.md JH-5): a binary map key naming one always becomes that atom. \
         Measured on OTP 25 (erts 13.1.5) with Elixir 1.18.4: the atom table, listed as \
         :erlang.binary_to_term(<<131, 75, index::24>>) for every index below \
         :erlang.system_info(:atom_count), of a bare `erl -noshell` VM (code path: Elixir's and \
         PtcRunner's ebin) right after loading Elixir.PtcRunner.PtcToolProtocol, \
         Elixir.PtcRunner.SubAgent.Loop.JsonHandler and Elixir.Map (the modules every call loads before \
         it converts its first key), intersected with the table of a fresh `elixir` VM that loaded the \
         same three modules (which drops the probe module's own atoms). Names sorted by bytes; all ASCII. \
         \\\"atoms\\\" is v0.13.0's table; \\\"releases\\\" gives, for each older release, the atoms of \
         that table its table lacks and the atoms its table has besides (spec/releases.md REL-2, \
         measured the same way on each build). Generated from the reference \
         (src/elixir/atom_table/); a test holds it equal.\",\n",
    );
    out.push_str("  \"atoms\": [\n");
    let names = ptc_conformance::atom_table::names::NAMES;
    for (i, name) in names.iter().enumerate() {
        let comma = if i + 1 < names.len() { "," } else { "" };
        let _ = writeln!(out, "    {}{comma}", json(name));
    }
    out.push_str("  ],\n  \"releases\": {\n");
    use ptc_conformance::atom_table::{ATOMS_SINCE, ATOMS_UNTIL};
    let older: Vec<ptc_conformance::Release> = ptc_conformance::Release::ALL
        .into_iter()
        .filter(|r| *r != ptc_conformance::Release::default())
        .collect();
    for (i, rel) in older.iter().enumerate() {
        let list = |names: Vec<&str>| names.into_iter().map(json).collect::<Vec<_>>().join(", ");
        let absent = ATOMS_SINCE
            .iter()
            .filter(|(_, since)| !rel.since(*since))
            .map(|(a, _)| *a)
            .collect();
        let extra = ATOMS_UNTIL
            .iter()
            .filter(|(_, until)| !rel.since(*until))
            .map(|(a, _)| *a)
            .collect();
        let comma = if i + 1 < older.len() { "," } else { "" };
        let _ = writeln!(
            out,
            "    {}: {{\"absent\": [{}], \"extra\": [{}]}}{comma}",
            json(rel.version()),
            list(absent),
            list(extra)
        );
    }
    out.push_str("  }\n}\n");
    out
}

#[test]
fn atoms_json() {
    check("spec/data/atoms.json", &render_atoms());
}
