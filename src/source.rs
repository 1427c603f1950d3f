//! Reading one file into text: size limit, UTF-8 check, BOM.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The default largest file analysed, in bytes.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

/// Why a file could not be turned into text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The OS refused.
    #[error("cannot read file: {0}")]
    Io(String),
    /// Bigger than the configured limit.
    #[error("skipped: larger than {limit} bytes ({size} bytes)")]
    TooLarge {
        /// Actual size.
        size: u64,
        /// Configured limit.
        limit: u64,
    },
    /// Not UTF-8.
    #[error("invalid UTF-8 at line {line}, column {column}")]
    InvalidUtf8 {
        /// 1-based line of the first bad byte.
        line: usize,
        /// 1-based column (chars) of the first bad byte.
        column: usize,
    },
    /// Contains NUL bytes: a binary file with a source extension.
    #[error("binary file (contains NUL bytes)")]
    Binary,
}

impl ReadError {
    /// Where in the file the problem is (line, column), if known.
    pub fn position(&self) -> (usize, usize) {
        match self {
            ReadError::InvalidUtf8 { line, column } => (*line, *column),
            _ => (1, 1),
        }
    }
}

/// Reads `path` as UTF-8 text, refusing files over `limit` bytes.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    // Check the type before opening: opening a FIFO would block forever.
    let meta = std::fs::metadata(path).map_err(|e| ReadError::Io(e.to_string()))?;
    if !meta.is_file() {
        return Err(ReadError::Io("not a regular file".into()));
    }
    let file = File::open(path).map_err(|e| ReadError::Io(e.to_string()))?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // `take` guards against files that grow while we read them.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    decode(bytes)
}

/// Turns raw bytes into text, stripping a UTF-8 byte-order mark.
pub fn decode(bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.contains(&0) {
        return Err(ReadError::Binary);
    }
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            Ok(text)
        }
        Err(err) => {
            let valid = err.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&err.as_bytes()[..valid]);
            let line = prefix.matches('\n').count() + 1;
            let column = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            Err(ReadError::InvalidUtf8 { line, column })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_reports_position() {
        let err = decode(b"fn a() {}\nlet x = \xff;".to_vec()).unwrap_err();
        assert_eq!(err, ReadError::InvalidUtf8 { line: 2, column: 9 });
    }

    #[test]
    fn bom_is_stripped() {
        assert_eq!(
            decode(b"\xef\xbb\xbffn a() {}".to_vec()).unwrap(),
            "fn a() {}"
        );
    }

    #[test]
    fn nul_is_binary() {
        assert_eq!(decode(b"fn\0".to_vec()), Err(ReadError::Binary));
    }
}
