//! The citation-marker parser on any answer text: never a panic; every marker's range lies in the
//! answer on character boundaries; clean offsets map back into the answer.
#![no_main]

use citelens_engine::markers::{classify, strip};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(answer) = std::str::from_utf8(data) else { return };
    let known = ["1", "2", "10", "a", "NA"];
    let clean = strip(answer, &known);
    for m in &clean.markers {
        assert!(m.start <= m.end && m.end <= answer.len(), "{m:?} outside {answer:?}");
        assert!(answer.is_char_boundary(m.start) && answer.is_char_boundary(m.end));
    }
    for (i, _) in clean.text.char_indices().chain(std::iter::once((clean.text.len(), ' '))) {
        let o = clean.to_original(i);
        assert!(o <= answer.len() && answer.is_char_boundary(o), "clean {i} -> {o} in {answer:?}");
    }
    let _ = classify(answer, &known);
});
