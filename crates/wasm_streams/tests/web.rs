//! The conversions in real headless Chromium (wasm-bindgen-test), against the browser's own
//! streams.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::future::poll_fn;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use futures_core::Stream;
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use wasm_streams::ReadableStream;

wasm_bindgen_test_configure!(run_in_browser);

/// Yields its items in order, then ends; sets `dropped` when dropped.
struct Items {
    items: Vec<Result<JsValue, JsValue>>,
    dropped: Rc<Cell<bool>>,
}

impl Items {
    fn new(items: Vec<Result<JsValue, JsValue>>) -> (Items, Rc<Cell<bool>>) {
        let dropped = Rc::new(Cell::new(false));
        (
            Items {
                items,
                dropped: dropped.clone(),
            },
            dropped,
        )
    }
}

impl Stream for Items {
    type Item = Result<JsValue, JsValue>;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = (!self.items.is_empty()).then(|| self.items.remove(0));
        Poll::Ready(next)
    }
}

impl Drop for Items {
    fn drop(&mut self) {
        self.dropped.set(true);
    }
}

async fn next<S: Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    poll_fn(|cx| Pin::new(&mut *stream).poll_next(cx)).await
}

fn numbers(values: &[f64]) -> Vec<Result<JsValue, JsValue>> {
    values.iter().map(|&v| Ok(JsValue::from_f64(v))).collect()
}

/// Reads one result with the browser's own reader: (done, value).
async fn read(reader: &web_sys::ReadableStreamDefaultReader) -> Result<(bool, JsValue), JsValue> {
    let result = JsFuture::from(reader.read()).await?;
    let done = Reflect::get(&result, &"done".into())?.is_truthy();
    Ok((done, Reflect::get(&result, &"value".into())?))
}

#[wasm_bindgen_test]
async fn the_browsers_reader_reads_the_rust_chunks_then_the_end() {
    let (items, _) = Items::new(numbers(&[1.0, 2.0, 3.0]));
    let raw = ReadableStream::from_stream(items).into_raw();
    let reader: web_sys::ReadableStreamDefaultReader = raw.get_reader().unchecked_into();
    for expected in [1.0, 2.0, 3.0] {
        let (done, value) = read(&reader).await.unwrap();
        assert!(!done);
        assert_eq!(value.as_f64(), Some(expected));
    }
    let (done, value) = read(&reader).await.unwrap();
    assert!(done);
    assert!(value.is_undefined());
}

#[wasm_bindgen_test]
async fn an_error_in_the_rust_stream_errors_the_web_stream() {
    let (items, _) = Items::new(vec![Ok(1.into()), Err("broken".into())]);
    let raw = ReadableStream::from_stream(items).into_raw();
    let reader: web_sys::ReadableStreamDefaultReader = raw.get_reader().unchecked_into();
    assert_eq!(read(&reader).await.unwrap().1.as_f64(), Some(1.0));
    assert_eq!(read(&reader).await.unwrap_err().as_string().as_deref(), Some("broken"));
}

#[wasm_bindgen_test]
async fn a_browser_stream_arrives_as_its_chunks() {
    let parts = Array::of2(&"hello, ".into(), &"streams".into());
    let blob = web_sys::Blob::new_with_str_sequence(&parts).unwrap();
    let mut stream = ReadableStream::from_raw(blob.stream()).into_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = next(&mut stream).await {
        bytes.extend(chunk.unwrap().unchecked_into::<Uint8Array>().to_vec());
    }
    assert_eq!(bytes, b"hello, streams");
    assert!(next(&mut stream).await.is_none(), "an ended stream stays ended");
}

#[wasm_bindgen_test]
async fn chunks_and_errors_survive_the_round_trip() {
    let (items, dropped) = Items::new(vec![Ok("a".into()), Ok("b".into()), Err("stop".into())]);
    let raw = ReadableStream::from_stream(items).into_raw();
    let mut stream = ReadableStream::from_raw(raw).into_stream();
    assert_eq!(next(&mut stream).await.unwrap().unwrap().as_string().as_deref(), Some("a"));
    assert_eq!(next(&mut stream).await.unwrap().unwrap().as_string().as_deref(), Some("b"));
    assert_eq!(next(&mut stream).await.unwrap().unwrap_err().as_string().as_deref(), Some("stop"));
    assert!(next(&mut stream).await.is_none(), "an error ends the stream");
    assert!(dropped.get(), "the Rust stream is dropped once it errs");
}

#[wasm_bindgen_test]
async fn dropping_the_rust_end_early_cancels_the_web_stream_and_its_source() {
    let (items, dropped) = Items::new(numbers(&[1.0, 2.0, 3.0]));
    let raw = ReadableStream::from_stream(items).into_raw();
    let mut stream = ReadableStream::from_raw(raw.clone()).into_stream();
    assert_eq!(next(&mut stream).await.unwrap().unwrap().as_f64(), Some(1.0));
    assert!(!dropped.get());
    drop(stream);
    JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL)).await.unwrap();
    assert!(dropped.get(), "cancelling the web stream drops the Rust stream");
    assert!(!raw.locked(), "the reader let go of the web stream");
}
