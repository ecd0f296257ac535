//! The cpuify passes, one module each.

pub mod barrier_elim;
pub mod canonicalize;
pub mod clamp_guards;
pub mod collapse;
pub mod distribute;
pub mod flatten_threads;
pub mod inline;
pub mod interchange;
pub mod lower_launch;
pub mod mem2reg;
pub mod parallel_licm;
pub mod predicate_barriers;
pub mod serialize_inner;
pub mod speculate;
pub mod strength_reduce;
pub mod stride_guards;
pub mod uniform;
pub mod unroll;

pub use barrier_elim::barrier_elim;
pub use canonicalize::canonicalize;
pub use clamp_guards::clamp_guards;
pub use collapse::collapse;
pub use distribute::distribute;
pub use flatten_threads::flatten_threads;
pub use inline::inline_calls;
pub use interchange::interchange;
pub use lower_launch::lower_launch;
pub use mem2reg::mem2reg;
pub use parallel_licm::parallel_licm;
pub use predicate_barriers::predicate_barriers;
pub use serialize_inner::serialize_inner;
pub use speculate::speculate;
pub use strength_reduce::strength_reduce;
pub use stride_guards::stride_guards;
pub use unroll::unroll;
