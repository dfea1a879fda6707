//! The input document as it reaches the worker: any bytes → JSON → `Input`, its caps checked, and
//! cut to fit. Never a panic; an input cut to fit is within every cap (a binary or empty document is
//! still refused, for what it is); a second cut cuts nothing.
#![no_main]

use citelens_types::{Caps, Input, InputError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut input) = Input::from_json(text) else { return };
    // Small caps, so the fuzzer reaches every cut with small inputs.
    let caps = Caps { max_answer_chars: 64, max_question_chars: 32, max_citations: 3, max_citation_chars: 48, max_document_chars: 80, max_triples: 2 };
    let _ = input.check(&caps);
    let _ = input.fit_to(&caps);
    let after = input.check(&caps);
    assert!(!matches!(after, Err(InputError::TooLarge { .. })), "an input cut to fit is within its caps: {after:?} for {input:?}");
    assert!(input.fit_to(&caps).is_empty(), "a second cut cuts nothing");
    // The document serializes back and reads the same.
    let again = serde_json::to_string(&input).expect("serializes");
    let back = Input::from_json(&again).expect("reads back");
    assert_eq!(back, input);
});
