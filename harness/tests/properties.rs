//! Properties of the term model and the reference, on generated terms
//! (`ptc_conformance_harness::gen`).

use proptest::prelude::*;
use ptc_conformance::tagged::{decode_str, encode};
use ptc_conformance_harness::gen;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// TJ-1, TJ-5: decoding what was encoded gives the same term, and
    /// encoding is canonical (the same bytes again).
    #[test]
    fn tagged_json_round_trips(t in gen::any_term()) {
        let text = encode(&t);
        let back = decode_str(&text, "").map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert_eq!(&back, &t, "{}", text);
        prop_assert_eq!(encode(&back), text);
    }
}
