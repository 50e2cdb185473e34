//! Content-type checks and charset decoding (header, then `<meta>`, then BOM, then UTF-8).

use encoding_rs::{Encoding, UTF_8};

/// Whether a Content-Type names an HTML (or XHTML) document. A missing type is accepted:
/// many small servers send none for `.html` files.
pub fn is_html_content_type(content_type: &str) -> bool {
    let mime = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime.is_empty() || mime == "text/html" || mime == "application/xhtml+xml"
}

/// Decodes a body, returning the text and the encoding used.
pub fn decode(body: &[u8], content_type: &str) -> (String, &'static str) {
    let encoding = Encoding::for_bom(body)
        .map(|(enc, _)| enc)
        .or_else(|| label_from_content_type(content_type))
        .or_else(|| label_from_meta(body))
        .unwrap_or(UTF_8);
    let (text, used, _had_errors) = encoding.decode(body);
    (text.into_owned(), used.name())
}

fn label_from_content_type(content_type: &str) -> Option<&'static Encoding> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| Encoding::for_label(value.trim().trim_matches('"').as_bytes()))
            .flatten()
    })
}

/// Looks for `charset=` in the first 1024 bytes, as browsers' prescan does.
fn label_from_meta(body: &[u8]) -> Option<&'static Encoding> {
    let head = &body[..body.len().min(1024)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    let start = lower.find("charset=")? + "charset=".len();
    let rest = lower[start..].trim_start_matches(['"', '\'', ' ']);
    let label: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
        .collect();
    Encoding::for_label(label.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_types() {
        assert!(is_html_content_type("text/html; charset=utf-8"));
        assert!(is_html_content_type("application/xhtml+xml"));
        assert!(is_html_content_type(""));
        assert!(!is_html_content_type("application/json"));
        assert!(!is_html_content_type("image/png"));
    }

    #[test]
    fn decodes_from_header_then_meta() {
        let latin1 = b"<p>caf\xe9</p>";
        assert_eq!(
            decode(latin1, "text/html; charset=ISO-8859-1").0,
            "<p>café</p>"
        );
        let with_meta = b"<meta charset=\"windows-1252\"><p>caf\xe9</p>";
        let (text, enc) = decode(with_meta, "text/html");
        assert!(text.ends_with("café</p>"));
        assert_eq!(enc, "windows-1252");
        assert_eq!(decode("<p>café</p>".as_bytes(), "text/html").1, "UTF-8");
    }
}
