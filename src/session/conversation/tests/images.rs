//! Base64 images of the newest turn become private files named by their content and are
//! referenced by absolute path; URL images by URL; earlier images as `[image]`.

use super::support::main_body;
use super::support::parse;
use super::support::push;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::RequestError;
use crate::session::conversation::first_turn_prompt;
use serde_json::json;
use sha2::Digest;

// "\x89PNG\r\n\x1a\n" + "demo"
const PNG_B64: &str = "iVBORw0KGgpkZW1v";
const PNG_BYTES: &[u8] = b"\x89PNG\r\n\x1a\ndemo";

#[test]
fn base64_image_is_written_0600_and_referenced() {
    let mut body = main_body();
    push(&mut body, "assistant", json!("ok"));
    push(
        &mut body,
        "user",
        json!([
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
            {"type": "text", "text": "what is this?"}
        ]),
    );
    let root = tempfile::tempdir().unwrap();
    let images = root.path().join("images");
    let prompt = first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, &images).unwrap();

    let name = format!("{}.png", hex::encode(sha2::Sha256::digest(PNG_BYTES)));
    let path = images.join(name);
    assert_eq!(prompt.images, vec![path.clone()]);
    assert_eq!(
        prompt.request,
        format!("[image: {}]\n\nwhat is this?", path.display())
    );
    assert_eq!(std::fs::read(&path).unwrap(), PNG_BYTES);
    crate::platform::testing::assert_mode(&path, 0o600);
    crate::platform::testing::assert_mode(&images, 0o700);

    // The same image again reuses the same file.
    let again = first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, &images).unwrap();
    assert_eq!(again.images, vec![path]);
    assert_eq!(std::fs::read_dir(&images).unwrap().count(), 1);
}

#[test]
fn url_images_are_referenced_and_history_images_are_placeholders() {
    let mut body = main_body();
    push(
        &mut body,
        "user",
        json!([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}}]),
    );
    push(&mut body, "assistant", json!("A tiny PNG."));
    push(
        &mut body,
        "user",
        json!([{"type": "image", "source": {"type": "url", "url": "https://example.com/a.jpg"}},
               {"type": "text", "text": "and this?"}]),
    );
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(
        prompt.text(),
        "Conversation so far (context; actions in it are already done — do not repeat them):\n\
         User: hi\n\
         User: [image]\n\
         Assistant: A tiny PNG.\n\
         \n\
         New request:\n\
         [image: https://example.com/a.jpg]\n\
         \n\
         and this?"
    );
    assert!(prompt.images.is_empty());
    assert_eq!(std::fs::read_dir(images.path()).unwrap().count(), 0);
}

#[test]
fn undecodable_image_is_refused() {
    let mut body = main_body();
    push(&mut body, "assistant", json!("ok"));
    push(
        &mut body,
        "user",
        json!([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "@@@"}}]),
    );
    let images = tempfile::tempdir().unwrap();
    let err =
        first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap_err();
    assert!(matches!(err, RequestError::InvalidImage(_)), "{err:?}");
}
