//! A document file as plain text for the engine: `.txt` as it is, HTML through `html2text` (block
//! elements become paragraphs), PDF through `pdf-extract`. The kind comes from the file's first
//! bytes, then its extension. A PDF with no text layer (a scan) is an error that says so, not an
//! empty document.

use std::path::Path;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum DocTextError {
    #[error("reading {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path}: the PDF could not be read: {reason}")]
    Pdf { path: String, reason: String },
    #[error("{path}: the PDF has no text layer (a scanned document?); citelens reads text, not images")]
    NoTextLayer { path: String },
    #[error("{path}: the HTML could not be turned into text: {reason}")]
    Html { path: String, reason: String },
    #[error("{path} is not UTF-8 text, HTML or PDF")]
    NotText { path: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Html,
    Pdf,
}

/// The kind of `bytes`: by content first (a PDF named `.txt` is still a PDF), then by extension.
pub fn kind_of(path: &Path, bytes: &[u8]) -> Kind {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).trim_start().to_ascii_lowercase();
    if bytes.starts_with(b"%PDF-") {
        return Kind::Pdf;
    }
    if head.starts_with("<!doctype html") || head.starts_with("<html") {
        return Kind::Html;
    }
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("pdf") => Kind::Pdf,
        Some("html" | "htm" | "xhtml") => Kind::Html,
        _ => Kind::Text,
    }
}

/// Lines wide enough that html2text never wraps a sentence: paragraphs stay one line each.
const HTML_WIDTH: usize = 100_000;

pub fn read(path: &Path) -> Result<String, DocTextError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| DocTextError::Read { path: name.clone(), source })?;
    to_text(&name, &bytes, kind_of(path, &bytes))
}

pub fn to_text(name: &str, bytes: &[u8], kind: Kind) -> Result<String, DocTextError> {
    match kind {
        Kind::Text => String::from_utf8(bytes.to_vec()).map_err(|_| DocTextError::NotText { path: name.into() }),
        Kind::Html => html2text::config::plain_no_decorate()
            .string_from_read(bytes, HTML_WIDTH)
            .map_err(|e| DocTextError::Html { path: name.into(), reason: e.to_string() }),
        Kind::Pdf => {
            // pdf-extract panics on some malformed files; a bad file is an error, not a crash.
            let got = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem(bytes));
            let text = match got {
                Ok(Ok(t)) => t,
                Ok(Err(e)) => return Err(DocTextError::Pdf { path: name.into(), reason: e.to_string() }),
                Err(_) => return Err(DocTextError::Pdf { path: name.into(), reason: "the PDF reader failed on this file".into() }),
            };
            if !text.chars().any(char::is_alphanumeric) {
                return Err(DocTextError::NoTextLayer { path: name.into() });
            }
            Ok(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_blocks_become_paragraphs_and_scripts_are_dropped() {
        let html = b"<!DOCTYPE html><html><head><title>T</title><script>alert('x')</script><style>p{}</style></head>\
            <body><h1>The museum</h1><p>It was founded in 1887.</p><p>It has <b>two</b> wings.</p></body></html>";
        let text = to_text("a.html", html, kind_of(Path::new("a.html"), html)).unwrap();
        assert!(text.contains("It was founded in 1887."), "{text}");
        assert!(text.contains("It has two wings."), "{text}");
        assert!(!text.contains("alert"), "{text}");
        let doc = citelens_engine::Document::new(&text).unwrap();
        assert!(doc.paragraphs.len() >= 3, "{text:?}");
    }

    #[test]
    fn kinds_come_from_content_before_extension() {
        assert_eq!(kind_of(Path::new("x.txt"), b"%PDF-1.4 ..."), Kind::Pdf);
        assert_eq!(kind_of(Path::new("x.txt"), b"  <html><body>hi</body></html>"), Kind::Html);
        assert_eq!(kind_of(Path::new("x.htm"), b"plain words"), Kind::Html);
        assert_eq!(kind_of(Path::new("x"), b"plain words"), Kind::Text);
    }

    /// A one-page PDF whose page draws `content` (a content stream), with a correct xref table.
    fn pdf(content: &str) -> Vec<u8> {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
            format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
        ];
        let mut out = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (i, o) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend(format!("{} 0 obj\n{o}\nendobj\n", i + 1).bytes());
        }
        let xref = out.len();
        out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
        for o in offsets {
            out.extend(format!("{o:010} 00000 n \n").bytes());
        }
        out.extend(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).bytes());
        out
    }

    #[test]
    fn pdf_text_is_read_and_a_page_without_text_is_named() {
        let text = to_text("a.pdf", &pdf("BT /F1 24 Tf 72 720 Td (The museum was founded in 1887.) Tj ET"), Kind::Pdf).unwrap();
        assert!(text.contains("founded in 1887"), "{text:?}");
        let err = to_text("scan.pdf", &pdf("0 0 m 100 100 l S"), Kind::Pdf).unwrap_err();
        assert!(matches!(err, DocTextError::NoTextLayer { .. }), "{err}");
        assert!(err.to_string().contains("no text layer"));
    }

    #[test]
    fn broken_and_textless_pdfs_say_what_is_wrong() {
        let err = to_text("bad.pdf", b"%PDF-1.7\nthis is not a real pdf", Kind::Pdf).unwrap_err();
        assert!(matches!(err, DocTextError::Pdf { .. }), "{err}");
        assert!(matches!(to_text("x.txt", &[0xff, 0xfe, 0x00], Kind::Text), Err(DocTextError::NotText { .. })));
    }
}
