//! Bytes → text.
//!
//! Kubernetes manifests are UTF-8. A file with invalid bytes is still read (each invalid
//! sequence becomes U+FFFD) so that its valid documents are evaluated; the documents that
//! contain a replacement are left out and one diagnostic points at the first bad byte.

use crate::diag::Diagnostic;
use crate::source::{SourceId, Span, Text};

/// Decoded text plus where invalid sequences were replaced.
#[derive(Debug)]
pub struct DecodedText {
    /// The text (BOM removed, invalid sequences replaced by U+FFFD).
    pub text: Text,
    /// Byte offsets (in `text`) of each replacement character.
    pub invalid_at: Vec<u32>,
    /// Set when the file cannot be read as text at all (UTF-16, too large).
    pub fatal: Option<String>,
}

/// Largest file dopol reads: 1 GiB. Spans are 32-bit (4 GiB at most), and a run holds the text,
/// its spans and its trees, several times the file size; 1 GiB is twenty times the 49 MB
/// benchmark corpus, yet a 2 GB file (or `/dev/zero`-like stream) is refused from its size
/// before it is read, instead of exhausting memory.
pub const MAX_FILE_BYTES: usize = 1 << 30;

/// Why a file over [`MAX_FILE_BYTES`] is not read (`size` when known).
pub fn too_large(size: Option<u64>) -> String {
    let size = size.map_or(String::new(), |s| format!(" ({s} bytes)"));
    format!("the file is larger than 1 GiB{size}, the most dopol reads ({MAX_FILE_BYTES} bytes)")
}

/// Decodes file bytes as UTF-8, recording replacements. Valid UTF-8 (the usual case) becomes
/// the text without a copy: a big input is held once, not twice, and a mapped one stays
/// mapped.
pub fn decode(bytes: super::files::FileBytes) -> DecodedText {
    use super::files::FileBytes;
    let bytes = match bytes {
        FileBytes::Owned(bytes) => bytes,
        FileBytes::Local(bytes, again) => {
            let mut decoded = decode_owned(bytes);
            if decoded.fatal.is_none() {
                decoded.text = decoded.text.readable_again(again);
            }
            return decoded;
        }
        // A BOM is stripped, and bytes that are not UTF-8 are replaced or refused: on a copy.
        #[cfg(unix)]
        FileBytes::Mapped(mapped) if mapped.bytes().starts_with(BOM) => mapped.bytes().to_vec(),
        #[cfg(unix)]
        FileBytes::Mapped(mapped) => match Text::mapped(mapped) {
            Ok(text) => {
                return DecodedText {
                    text,
                    invalid_at: Vec::new(),
                    fatal: None,
                };
            }
            Err(mapped) => mapped.bytes().to_vec(),
        },
    };
    decode_owned(bytes)
}

/// The UTF-8 byte order mark, which a file may start with.
const BOM: &[u8] = b"\xEF\xBB\xBF";

fn decode_owned(mut bytes: Vec<u8>) -> DecodedText {
    if bytes.len() > MAX_FILE_BYTES {
        return DecodedText {
            text: String::new().into(),
            invalid_at: Vec::new(),
            fatal: Some(too_large(None)),
        };
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return DecodedText {
            text: String::new().into(),
            invalid_at: Vec::new(),
            fatal: Some("the file is UTF-16; Kubernetes manifests must be UTF-8".into()),
        };
    }
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    match String::from_utf8(bytes) {
        Ok(text) => DecodedText {
            text: text.into(),
            invalid_at: Vec::new(),
            fatal: None,
        },
        Err(error) => {
            let bytes = error.into_bytes();
            let mut text = String::with_capacity(bytes.len() + 16);
            let mut invalid_at = Vec::new();
            for chunk in bytes.utf8_chunks() {
                text.push_str(chunk.valid());
                if !chunk.invalid().is_empty() {
                    invalid_at.push(text.len() as u32);
                    text.push(char::REPLACEMENT_CHARACTER);
                }
            }
            DecodedText {
                text: text.into(),
                invalid_at,
                fatal: None,
            }
        }
    }
}

/// The diagnostic for a file with invalid UTF-8 (pointing at the first bad sequence).
pub fn invalid_encoding_diagnostic(source: SourceId, invalid_at: &[u32]) -> Option<Diagnostic> {
    let first = *invalid_at.first()?;
    let span = Span::new(
        source,
        first,
        first + char::REPLACEMENT_CHARACTER.len_utf8() as u32,
    );
    let count = invalid_at.len();
    Some(
        Diagnostic::from(super::diags::InvalidEncoding::Sequences { count })
            .with_label(span, "invalid UTF-8 here"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_invalid_bytes_and_records_positions() {
        let decoded = decode(b"a: \xff\nb: ok\n".to_vec().into());
        assert_eq!(decoded.text.as_str(), "a: \u{FFFD}\nb: ok\n");
        assert_eq!(decoded.invalid_at, vec![3]);
        assert!(decoded.fatal.is_none());
    }

    #[test]
    fn strips_bom_and_rejects_utf16() {
        assert_eq!(
            decode(b"\xEF\xBB\xBFa: 1".to_vec().into()).text.as_str(),
            "a: 1"
        );
        assert!(decode(b"\xFF\xFEa\x00".to_vec().into()).fatal.is_some());
    }

    /// A mapped file decodes as the same bytes read would, and stays mapped only when it is
    /// UTF-8 without a BOM.
    #[cfg(unix)]
    #[test]
    fn a_mapped_file_decodes_as_read_bytes_do() {
        use std::io::Write;
        for (bytes, stays_mapped) in [
            (&b"a: 1\nb: \xc3\xa7\n"[..], true),
            (b"\xEF\xBB\xBFa: 1\n", false),
            (b"a: \xff\nb: ok\n", false),
            (b"\xFF\xFEa\x00", false),
        ] {
            let mut file = tempfile::tempfile().expect("temp file");
            file.write_all(bytes).expect("written");
            let mapped = crate::platform::Mapped::map(&file, bytes.len()).expect("mapped");
            let from_map = decode(super::super::files::FileBytes::Mapped(mapped));
            let from_read = decode(bytes.to_vec().into());
            assert_eq!(from_map.text.as_str(), from_read.text.as_str(), "{bytes:?}");
            assert_eq!(from_map.invalid_at, from_read.invalid_at, "{bytes:?}");
            assert_eq!(from_map.fatal, from_read.fatal, "{bytes:?}");
            assert_eq!(
                matches!(from_map.text, Text::Mapped(_)),
                stays_mapped,
                "{bytes:?}"
            );
        }
    }
}
