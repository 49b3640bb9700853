//! Base64 images of the newest turn, written to files named by their sha256 so the prompt can
//! reference them by path.

use std::path::Path;
use std::path::PathBuf;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::DecodePaddingMode;
use base64::engine::GeneralPurpose;
use base64::engine::GeneralPurposeConfig;
use sha2::Digest;
use sha2::Sha256;

use super::RequestError;
use crate::anthropic::request::MediaSource;
use crate::state;
use crate::state::StateError;

/// How an image of the newest turn is referenced, and the file written for it (if any).
pub(super) fn image_reference(
    source: &MediaSource,
    images_dir: &Path,
) -> Result<(String, Option<PathBuf>), RequestError> {
    match source {
        MediaSource::Base64 { media_type, data } => {
            let path = save_image(media_type, data, images_dir)?;
            Ok((path.display().to_string(), Some(path)))
        }
        MediaSource::Url { url } => Ok((url.clone(), None)),
        MediaSource::Other { kind, .. } => Err(RequestError::InvalidImage(format!(
            "source type \"{kind}\" is not supported"
        ))),
        MediaSource::Text { .. } | MediaSource::Content { .. } => Err(RequestError::InvalidImage(
            "an image needs a base64 or url source".to_string(),
        )),
    }
}

/// Writes a base64 image as `<images_dir>/<sha256 hex>.<ext>` (0600, atomically; an existing
/// file with that name already holds these bytes) and returns its absolute path.
fn save_image(media_type: &str, data: &str, images_dir: &Path) -> Result<PathBuf, RequestError> {
    let bytes = decode_base64(data).map_err(RequestError::InvalidImage)?;
    if bytes.is_empty() {
        return Err(RequestError::InvalidImage("the image is empty".to_string()));
    }
    state::ensure_private_dir(images_dir).map_err(RequestError::ImageWrite)?;
    let dir = std::path::absolute(images_dir).map_err(|source| {
        RequestError::ImageWrite(StateError::Io {
            path: images_dir.to_path_buf(),
            source,
        })
    })?;
    let name = format!(
        "{}.{}",
        hex::encode(Sha256::digest(&bytes)),
        image_extension(media_type)
    );
    let path = dir.join(name);
    if !path.is_file() {
        state::write_private_atomic(&path, &bytes).map_err(RequestError::ImageWrite)?;
    }
    Ok(path)
}

/// File extension for an image media type (`image/png` → `png`); `bin` when unknown.
fn image_extension(media_type: &str) -> String {
    let subtype = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let subtype = subtype.strip_prefix("image/").unwrap_or("");
    match subtype {
        "jpeg" | "jpg" | "pjpeg" => "jpg".to_string(),
        "svg+xml" => "svg".to_string(),
        s if !s.is_empty() && s.len() <= 8 && s.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            s.to_string()
        }
        _ => "bin".to_string(),
    }
}

/// Decodes image data: standard or URL-safe base64 (the two alphabets may even be mixed),
/// whitespace ignored, padding optional, stray bits after the last byte accepted. The input is
/// first checked and mapped to the standard alphabet here, so the errors name the byte at fault.
fn decode_base64(input: &str) -> Result<Vec<u8>, String> {
    let mut standard = Vec::with_capacity(input.len());
    let mut padded = false;
    for (index, byte) in input.bytes().enumerate() {
        let mapped = match byte {
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            b'=' => {
                padded = true;
                continue;
            }
            b'-' => b'+',
            b'_' => b'/',
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'+' | b'/' => byte,
            _ => return Err(format!("invalid base64 character at byte {index}")),
        };
        if padded {
            return Err("base64 data continues after its padding".to_string());
        }
        standard.push(mapped);
    }
    // With the padding gone and every byte in the alphabet, a length of 4n+1 is the one error
    // left.
    IMAGE_BASE64
        .decode(&standard)
        .map_err(|_| "base64 data is truncated".to_string())
}

/// The decoder behind [`decode_base64`]: standard alphabet, padding optional, trailing bits
/// accepted.
const IMAGE_BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_known_vectors() {
        assert_eq!(decode_base64("").unwrap(), b"");
        assert_eq!(decode_base64("Zg==").unwrap(), b"f");
        assert_eq!(decode_base64("Zm8=").unwrap(), b"fo");
        assert_eq!(decode_base64("Zm9v").unwrap(), b"foo");
        assert_eq!(decode_base64("Zm9vYg").unwrap(), b"foob");
        assert_eq!(decode_base64("Zm9v\nYmFy").unwrap(), b"foobar");
        assert!(decode_base64("Z").is_err());
        assert!(decode_base64("Zm9v!").is_err());
        assert!(decode_base64("Zg==Zg").is_err());
    }

    #[test]
    fn base64_accepts_both_alphabets_and_names_the_bad_byte() {
        assert_eq!(decode_base64("-_-_").unwrap(), vec![0xfb, 0xff, 0xbf]);
        assert_eq!(decode_base64("+/+/").unwrap(), vec![0xfb, 0xff, 0xbf]);
        assert_eq!(decode_base64("Zh").unwrap(), b"f");
        assert_eq!(
            decode_base64("Zm9v!").unwrap_err(),
            "invalid base64 character at byte 4"
        );
        assert_eq!(
            decode_base64("Zg==Zg").unwrap_err(),
            "base64 data continues after its padding"
        );
        assert_eq!(
            decode_base64("Zm9vY").unwrap_err(),
            "base64 data is truncated"
        );
    }

    #[test]
    fn image_extensions() {
        assert_eq!(image_extension("image/png"), "png");
        assert_eq!(image_extension("image/jpeg"), "jpg");
        assert_eq!(image_extension("image/svg+xml"), "svg");
        assert_eq!(image_extension("text/plain"), "bin");
    }
}
