//! `SendWrapper<T>`: marks a value `Send` and `Sync` on the promise that it is only touched on the
//! thread that made it.
//!
//! Leptos wraps every DOM node, event handler and local future in one. The published crate keeps
//! that promise by reading `std::thread::current()` in every `new`, dereference and drop, which
//! on tokbound's page is a reference count up and down per reactive access and, over the 63
//! places the page's build inlined it, 1.6 KB of its compressed WebAssembly, for a check that
//! cannot fail: the page's WebAssembly is built without the `atomics` feature, so it
//! has one thread. There this type is a plain wrapper. Everywhere else it records the creating
//! thread and panics on use from another, as the published crate does.
//!
//! The public API (`new`, `valid`, `take`, `Deref`, `DerefMut`, `Debug`, `Clone`, and with the
//! `futures` feature `Future` and `Stream`) is the one Leptos 0.8 calls.

use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

use origin::{here, is_here, Origin};

/// Single-threaded WebAssembly: nothing to record or compare.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod origin {
    pub type Origin = ();
    pub fn here() -> Origin {}
    pub fn is_here(_: &Origin) -> bool {
        true
    }
}

/// Every other target: the creating thread's id.
#[cfg(not(all(target_arch = "wasm32", not(target_feature = "atomics"))))]
mod origin {
    pub type Origin = std::thread::ThreadId;
    pub fn here() -> Origin {
        std::thread::current().id()
    }
    pub fn is_here(origin: &Origin) -> bool {
        *origin == here()
    }
}

/// A value that may be moved between threads but only used, and dropped, on the one that wrapped it.
pub struct SendWrapper<T> {
    data: ManuallyDrop<T>,
    origin: Origin,
}

// SAFETY: every access to `data` (dereference, `take`, drop) first checks that it happens on the
// creating thread, and panics otherwise; on a single-threaded target there is no other thread.
unsafe impl<T> Send for SendWrapper<T> {}
unsafe impl<T> Sync for SendWrapper<T> {}

impl<T> SendWrapper<T> {
    /// Wraps `data`, remembering the current thread.
    pub fn new(data: T) -> SendWrapper<T> {
        SendWrapper {
            data: ManuallyDrop::new(data),
            origin: here(),
        }
    }

    /// True on the thread that created the wrapper.
    pub fn valid(&self) -> bool {
        is_here(&self.origin)
    }

    fn check(&self, what: &str) {
        if !self.valid() {
            panic!("SendWrapper {what} on a thread other than the one that created it");
        }
    }

    /// The wrapped value. Panics on another thread.
    pub fn take(self) -> T {
        self.check("taken");
        let mut this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again, so `data` is moved out exactly once.
        unsafe { ManuallyDrop::take(&mut this.data) }
    }
}

impl<T> Deref for SendWrapper<T> {
    type Target = T;

    /// Panics on another thread.
    fn deref(&self) -> &T {
        self.check("dereferenced");
        &self.data
    }
}

impl<T> DerefMut for SendWrapper<T> {
    /// Panics on another thread.
    fn deref_mut(&mut self) -> &mut T {
        self.check("dereferenced");
        &mut self.data
    }
}

impl<T> Drop for SendWrapper<T> {
    /// Drops the value on its own thread. Elsewhere it panics, unless the thread is already
    /// unwinding (a second panic would abort), in which case the value is leaked.
    fn drop(&mut self) {
        if !std::mem::needs_drop::<T>() || self.valid() {
            // SAFETY: `data` is dropped here once and the wrapper is not used afterwards.
            unsafe { ManuallyDrop::drop(&mut self.data) };
        } else if !std::thread::panicking() {
            panic!("SendWrapper dropped on a thread other than the one that created it");
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for SendWrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SendWrapper").field(&**self).finish()
    }
}

impl<T: Clone> Clone for SendWrapper<T> {
    /// Panics on another thread.
    fn clone(&self) -> Self {
        SendWrapper::new((**self).clone())
    }
}

#[cfg(feature = "futures")]
mod futures {
    use super::SendWrapper;
    use futures_core::Stream;
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    impl<F: Future> Future for SendWrapper<F> {
        type Output = F::Output;

        /// Panics on another thread.
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            // SAFETY: the wrapper never moves `data` out while pinned (`take` consumes an
            // unpinned wrapper), so pinning the wrapper pins the value. `**w` is `DerefMut`,
            // which checks the thread.
            unsafe { self.map_unchecked_mut(|w| &mut **w) }.poll(cx)
        }
    }

    impl<S: Stream> Stream for SendWrapper<S> {
        type Item = S::Item;

        /// Panics on another thread.
        fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            // SAFETY: as for `poll`.
            unsafe { self.map_unchecked_mut(|w| &mut **w) }.poll_next(cx)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SendWrapper;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::rc::Rc;

    #[test]
    fn on_its_own_thread_it_is_the_value() {
        let mut w = SendWrapper::new(vec![1, 2]);
        assert!(w.valid());
        w.push(3);
        assert_eq!(*w, [1, 2, 3]);
        assert_eq!(format!("{:?}", w.clone()), "SendWrapper([1, 2, 3])");
        assert_eq!(w.take(), [1, 2, 3]);
    }

    #[test]
    fn drops_its_value_once() {
        let counted = Rc::new(());
        let w = SendWrapper::new(Rc::clone(&counted));
        assert_eq!(Rc::strong_count(&counted), 2);
        drop(w);
        assert_eq!(Rc::strong_count(&counted), 1);
        let taken = SendWrapper::new(Rc::clone(&counted)).take();
        assert_eq!(Rc::strong_count(&counted), 2);
        drop(taken);
        assert_eq!(Rc::strong_count(&counted), 1);
    }

    #[test]
    fn on_another_thread_every_use_panics() {
        let w = SendWrapper::new(Rc::new(5));
        let w = std::thread::spawn(move || {
            assert!(!w.valid());
            assert!(catch_unwind(AssertUnwindSafe(|| **w)).is_err(), "deref");
            assert!(catch_unwind(AssertUnwindSafe(|| w.clone())).is_err(), "clone");
            w
        })
        .join()
        .unwrap();
        let dropped_elsewhere = std::thread::spawn(move || catch_unwind(AssertUnwindSafe(|| drop(w))).is_err())
            .join()
            .unwrap();
        assert!(dropped_elsewhere, "drop on another thread panics");
        let taken_elsewhere = std::thread::spawn(|| {
            let w = SendWrapper::new(1u8);
            std::thread::spawn(move || catch_unwind(AssertUnwindSafe(|| w.take())).is_err())
                .join()
                .unwrap()
        });
        assert!(taken_elsewhere.join().unwrap(), "take on another thread panics");
    }

    #[cfg(feature = "futures")]
    #[test]
    fn a_wrapped_future_polls_through() {
        use std::future::Future;
        use std::pin::pin;
        use std::task::{Context, Poll, Waker};
        let mut f = pin!(SendWrapper::new(async { 7 }));
        assert_eq!(f.as_mut().poll(&mut Context::from_waker(Waker::noop())), Poll::Ready(7));
    }
}
