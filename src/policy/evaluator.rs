//! The engine's half of the family contract ([`crate::engine::evaluator`]) and the topology's
//! attachments and common order ([`crate::topology::family`]), where the families name them.

pub use crate::engine::evaluator::*;
pub use crate::topology::family::{Attachment, Via, name_ties, order_by_age};
