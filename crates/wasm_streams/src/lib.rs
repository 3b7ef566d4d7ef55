//! Web streams as Rust streams and back: the two conversions Leptos's server functions make
//! (`ReadableStream::from_stream(..).into_raw()` for a streaming request body,
//! `ReadableStream::from_raw(..).into_stream()` for a streaming response), with the published
//! wasm-streams 0.5 API.
//!
//! Why tokbound has its own: the published crate implements the JavaScript side of a stream as
//! classes exported from the WebAssembly module. Exports are roots, so their code, and every
//! future and closure they reach, ships in the page's wasm even though tokbound never calls a
//! server function; the glue and wasm-opt can drop the exports but not the closures the
//! function table still lists. Here the JavaScript side is a plain object of closures, built
//! only when a conversion is called, so a page that never converts a stream links none of it.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use futures_core::Stream;
use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::{QueuingStrategy, ReadableStreamDefaultController, ReadableStreamDefaultReader};

/// The raw web-sys types, where the published crate keeps them.
pub mod readable {
    pub use super::{IntoStream, ReadableStream};

    pub mod sys {
        pub use web_sys::ReadableStream;
    }
}

/// A web `ReadableStream`.
pub struct ReadableStream {
    raw: web_sys::ReadableStream,
}

type Items = Pin<Box<dyn Stream<Item = Result<JsValue, JsValue>>>>;

impl ReadableStream {
    pub fn from_raw(raw: web_sys::ReadableStream) -> Self {
        ReadableStream { raw }
    }

    pub fn into_raw(self) -> web_sys::ReadableStream {
        self.raw
    }

    /// A web stream that pulls from `stream`: each `Ok` is enqueued as a chunk, an `Err` errors
    /// the web stream, the end closes it, and cancelling it drops `stream`. The queue's high-water
    /// mark is 0, so the web stream asks for a chunk only when its reader does.
    pub fn from_stream<St>(stream: St) -> Self
    where
        St: Stream<Item = Result<JsValue, JsValue>> + 'static,
    {
        let items: Rc<RefCell<Option<Items>>> = Rc::new(RefCell::new(Some(Box::pin(stream))));
        let pulled = items.clone();
        // The web stream calls pull again only once the promise of the last pull has settled.
        let pull =
            Closure::<dyn FnMut(ReadableStreamDefaultController) -> Promise>::new(move |controller: ReadableStreamDefaultController| {
                let items = pulled.clone();
                future_to_promise(async move {
                    let Some(mut stream) = items.borrow_mut().take() else {
                        return Ok(JsValue::UNDEFINED); // cancelled
                    };
                    let next = std::future::poll_fn(|cx| stream.as_mut().poll_next(cx)).await;
                    match next {
                        Some(Ok(chunk)) => {
                            controller.enqueue_with_chunk(&chunk)?;
                            *items.borrow_mut() = Some(stream);
                        }
                        Some(Err(error)) => return Err(error),
                        None => controller.close()?,
                    }
                    Ok(JsValue::UNDEFINED)
                })
            });
        let cancel = Closure::<dyn FnMut(JsValue)>::new(move |_reason| {
            items.borrow_mut().take();
        });
        let source = Object::new();
        let _ = Reflect::set(&source, &"pull".into(), &pull.into_js_value());
        let _ = Reflect::set(&source, &"cancel".into(), &cancel.into_js_value());
        let strategy = QueuingStrategy::new();
        strategy.set_high_water_mark(0.0);
        let raw = web_sys::ReadableStream::new_with_underlying_source_and_strategy(&source, &strategy)
            .expect_throw("the ReadableStream constructor refused a default source");
        ReadableStream { raw }
    }

    /// The stream's chunks as a Rust stream (locking the web stream to one reader). A read that
    /// fails yields its error and ends the stream; dropping the Rust stream early cancels the
    /// web stream and unlocks it.
    pub fn into_stream(self) -> IntoStream<'static> {
        let reader = self.raw.get_reader().unchecked_into::<ReadableStreamDefaultReader>();
        IntoStream {
            reader: Some(reader),
            pending: None,
            _lifetime: std::marker::PhantomData,
        }
    }
}

/// [`ReadableStream::into_stream`]'s stream.
pub struct IntoStream<'reader> {
    reader: Option<ReadableStreamDefaultReader>,
    pending: Option<JsFuture>,
    _lifetime: std::marker::PhantomData<&'reader ()>,
}

impl Stream for IntoStream<'_> {
    type Item = Result<JsValue, JsValue>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        let Some(reader) = &this.reader else {
            return Poll::Ready(None);
        };
        let pending = this.pending.get_or_insert_with(|| JsFuture::from(reader.read()));
        let result = match Pin::new(pending).poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(result) => result,
        };
        this.pending = None;
        let read = result.and_then(|r| {
            let done = Reflect::get(&r, &"done".into())?.is_truthy();
            (!done).then(|| Reflect::get(&r, &"value".into())).transpose()
        });
        match read {
            Ok(Some(chunk)) => Poll::Ready(Some(Ok(chunk))),
            Ok(None) => {
                if let Some(reader) = this.reader.take() {
                    reader.release_lock();
                }
                Poll::Ready(None)
            }
            Err(error) => {
                this.reader = None;
                Poll::Ready(Some(Err(error)))
            }
        }
    }
}

impl Drop for IntoStream<'_> {
    fn drop(&mut self) {
        if let Some(reader) = self.reader.take() {
            let _ = reader.cancel();
            reader.release_lock();
        }
    }
}
