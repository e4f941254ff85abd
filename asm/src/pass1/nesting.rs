//! What the pass keeps of macros and conditionals between statements: the
//! macros defined so far ([`Macro`], its [`Param`]s) and the open
//! conditional blocks ([`Cond`]). Defining, expanding and evaluating them is
//! `crate::blocks`'s, which sits above the pass and fills these.

use crate::source::{CtxId, Span};

#[derive(Debug)]
pub(crate) struct Param {
    pub(crate) name: String,
    pub(crate) default: Option<String>,
    pub(crate) required: bool,
    pub(crate) vararg: bool,
}

#[derive(Debug)]
pub(crate) struct Macro {
    pub(crate) name: String,
    pub(crate) params: Vec<Param>,
    pub(crate) body_file: u32,
    pub(crate) body_start: u32,
    pub(crate) body_end: u32,
}

pub(crate) struct Cond {
    pub(crate) active: bool,
    pub(crate) taken: bool,
    pub(crate) parent_active: bool,
    pub(crate) else_seen: bool,
    pub(crate) span: Span,
    pub(crate) ctx: CtxId,
}
