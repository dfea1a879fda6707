//! The text stage: the answer without its markers, its sentences and atomic claims, and the names,
//! numbers and dates in them (with the word lists every stage reads).

pub mod analysed;
pub mod claims;
pub mod entities;
pub mod kg;
pub mod markers;
pub(crate) mod question;
pub mod segment;
pub mod values;
pub(crate) mod words;
