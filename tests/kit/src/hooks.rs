//! An SDK interceptor made of closures, for tests and benchmarks: record or count
//! the DynamoDB calls, change a request, fail one as the network would, read an
//! answer. `TestApp` (the IAM recorder), the benchmarks and the fault tests each
//! build theirs from [`Hooks`] instead of an `Intercept` impl of their own.

use std::fmt;

use aws_sdk_dynamodb::config::{
    ConfigBag, Intercept, RuntimeComponents,
    interceptors::{
        BeforeSerializationInterceptorContextMut, BeforeTransmitInterceptorContextRef,
        FinalizerInterceptorContextRef,
    },
};

use shared::store::Store;

/// What a hook returns: an error fails the call (or the attempt) with it.
pub type HookResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

type OnInput =
    dyn Fn(&mut BeforeSerializationInterceptorContextMut<'_>) -> HookResult + Send + Sync;
type OnSend = dyn Fn(&BeforeTransmitInterceptorContextRef<'_>) -> HookResult + Send + Sync;
type OnDone = dyn Fn(&FinalizerInterceptorContextRef<'_>) + Send + Sync;

/// The closures to run at three points of every call a client makes.
pub struct Hooks {
    name: &'static str,
    input: Option<Box<OnInput>>,
    send: Option<Box<OnSend>>,
    done: Option<Box<OnDone>>,
}

impl Hooks {
    pub fn new(name: &'static str) -> Self {
        Hooks {
            name,
            input: None,
            send: None,
            done: None,
        }
    }

    /// Sees each call's input before it is serialized, once per call (retries not
    /// again), and may change it (`context.input_mut().downcast_mut::<QueryInput>()`).
    pub fn on_input(
        mut self,
        f: impl Fn(&mut BeforeSerializationInterceptorContextMut<'_>) -> HookResult
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.input = Some(Box::new(f));
        self
    }

    /// Sees each attempt's HTTP request just before it is sent, retries included.
    pub fn on_send(
        mut self,
        f: impl Fn(&BeforeTransmitInterceptorContextRef<'_>) -> HookResult + Send + Sync + 'static,
    ) -> Self {
        self.send = Some(Box::new(f));
        self
    }

    /// Sees each call once it is over, its output or its error.
    pub fn on_done(
        mut self,
        f: impl Fn(&FinalizerInterceptorContextRef<'_>) + Send + Sync + 'static,
    ) -> Self {
        self.done = Some(Box::new(f));
        self
    }

    /// `store` over the same table, its client running these hooks.
    pub fn on(self, store: &Store) -> Store {
        let config = store
            .client()
            .config()
            .to_builder()
            .interceptor(self)
            .build();
        Store::new(aws_sdk_dynamodb::Client::from_conf(config), store.table())
            .with_answer_times(*store.answer_times())
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks").field("name", &self.name).finish()
    }
}

impl Intercept for Hooks {
    fn name(&self) -> &'static str {
        self.name
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> HookResult {
        self.input.as_ref().map_or(Ok(()), |f| f(context))
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> HookResult {
        self.send.as_ref().map_or(Ok(()), |f| f(context))
    }

    fn read_after_execution(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> HookResult {
        if let Some(f) = &self.done {
            f(context);
        }
        Ok(())
    }
}
