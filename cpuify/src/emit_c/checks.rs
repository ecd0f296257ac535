//! Checked builds of the emitted C (`CUCC_SANITIZE`, docs/sanitize.md).
//!
//! `memcheck` puts a bounds check before every access through a pointer
//! that is not rooted at a private alloca: loads, stores, atomics and both
//! sides of `memcpy`/`memset`. Shared accesses must fall in the block's
//! shared window (`scratch` to the end of the dynamic area); other accesses
//! in a live allocation the runtime knows, the shared window
//! (generic pointers) or the entry's own stack frame (generic pointers to
//! private arrays). Each site caches the last allocation range it hit, in
//! the entry's locals, so the runtime's table is read once per site and
//! allocation per chunk. The first failing check of a chunk calls the runtime,
//! which reports it, and the entry returns.
//!
//! `racecheck` records every non-atomic access to the shared window in a
//! per-worker shadow (one cell per byte: the phase it was last touched in,
//! the writer and up to two readers). A phase is one run of a thread loop:
//! after cpuify, the accesses of a block between two barriers are exactly
//! those of one run of one block-level (or lane-level) loop, so two
//! threads touching the same byte in one run, one of them writing, is a
//! hazard the program's barriers do not order. A write of the bytes another
//! thread wrote in the phase is reported as a warning (the outcome does not
//! depend on the order), as compute-sanitizer does.

use std::fmt::Write;

/// What a checked build checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sanitize {
    /// No checks (the normal build).
    #[default]
    Off,
    /// Bounds of global and shared accesses.
    Memcheck,
    /// Conflicting shared accesses between barriers.
    Racecheck,
}

impl Sanitize {
    /// Parses a `CUCC_SANITIZE` value (`memcheck`, `racecheck`; empty or
    /// `none`/`0`/`off` for none).
    pub fn parse(s: &str) -> Result<Sanitize, String> {
        match s.trim() {
            "" | "0" | "none" | "off" => Ok(Sanitize::Off),
            "memcheck" => Ok(Sanitize::Memcheck),
            "racecheck" => Ok(Sanitize::Racecheck),
            other => Err(format!(
                "unknown sanitizer `{other}` (expected memcheck or racecheck)"
            )),
        }
    }

    /// The name used in cache keys and messages.
    pub fn name(self) -> &'static str {
        match self {
            Sanitize::Off => "off",
            Sanitize::Memcheck => "memcheck",
            Sanitize::Racecheck => "racecheck",
        }
    }
}

/// Access kinds in `cucc_san_site.flags` (defined with the struct).
pub use crate::abi::{SITE_ATOMIC, SITE_SHARED, SITE_WRITE};

/// C declarations of checked builds, after the prelude (the structs are
/// checked against `crate::abi::{SanSite, RcCell, RcState}`).
pub const PRELUDE: &str = r#"
/* Checked build (docs/sanitize.md). */
typedef struct cucc_san_site {
  const char *kernel; /* device name */
  const char *where;  /* file:line, or "" */
  const char *what;   /* shared variable or global, or "" */
  uint32_t size;      /* bytes of a typed access, 0 for memcpy/memset */
  uint32_t flags;     /* 1 write, 2 atomic, 4 shared */
} cucc_san_site;
typedef struct cucc_mc_state {
  uintptr_t slo, shi, flo, fhi;
} cucc_mc_state;
int __cucc_mc_lookup(uintptr_t a, uint64_t n, uintptr_t *lo, uintptr_t *hi);
void __cucc_mc_fail(const cucc_san_site *s, uintptr_t a, uint64_t n, const cucc_launch *l,
                    uint32_t blk, uint32_t thr, uintptr_t slo, uintptr_t shi);
/* `c` is the site's cache: the last allocation range it hit. */
static inline int cucc_mc_ok(const cucc_mc_state *st, uintptr_t *c, uintptr_t a, uint64_t n,
                             int shared) {
  uintptr_t e = a + n;
  if (__builtin_expect(e < a, 0)) return 0;
  if (shared) return a >= st->slo && e <= st->shi;
  if (a >= c[0] && e <= c[1]) return 1;
  if (a >= st->slo && e <= st->shi) return 1;
  if (a >= st->flo && e <= st->fhi) return 1;
  return __cucc_mc_lookup(a, n, &c[0], &c[1]);
}
typedef struct cucc_rc_cell {
  uint32_t epoch, w, r1, r2;
  const cucc_san_site *ws, *rs;
} cucc_rc_cell;
typedef struct cucc_rc_state {
  uint32_t epoch, segment;
  cucc_rc_cell *cells;
  uintptr_t base;
  uint64_t size;
} cucc_rc_state;
cucc_rc_state *__cucc_rc_begin(void *scratch, uint64_t size);
void __cucc_rc_hazard(const cucc_san_site *first, uint32_t t1, const cucc_san_site *second,
                      uint32_t t2, uint64_t offset, int kind, const cucc_launch *l, uint32_t blk);
#define CUCC_RC_NONE 0xffffffffu
/* A cell records an access as `thread | segment << 11`. A phase (epoch) is
 * one run of a block-level or warp-level loop: what a block does between
 * two barriers. A segment is one run of a lane loop: a warp's lanes
 * between two warp primitives, which order that warp's lanes. So two
 * accesses of different threads in one phase conflict when the threads
 * are in different warps, or in one warp's same segment. */
#define CUCC_RC_TBITS 11u
#define CUCC_RC_TMASK 0x7ffu
static inline int cucc_rc_conflict(uint32_t prev, uint32_t cur) {
  if (prev == CUCC_RC_NONE) return 0;
  uint32_t p = prev & CUCC_RC_TMASK, c = cur & CUCC_RC_TMASK;
  return p != c && ((p >> 5) != (c >> 5) || (prev >> CUCC_RC_TBITS) == (cur >> CUCC_RC_TBITS));
}
/* `val`: the bytes a store writes (NULL when unknown): a write over
 * another thread's write of the same bytes is reported as a warning. */
static inline void cucc_rc_access(cucc_rc_state *st, uintptr_t a, uint64_t n, int write,
                                  uint32_t thr, const cucc_san_site *s, const cucc_launch *l,
                                  uint32_t blk, const void *val) {
  if (thr == CUCC_RC_NONE || a < st->base || a - st->base >= st->size) return;
  uint64_t off = a - st->base;
  if (n > st->size - off) n = st->size - off;
  uint32_t me = (thr & CUCC_RC_TMASK) | (st->segment << CUCC_RC_TBITS);
  for (uint64_t i = 0; i < n; i++) {
    cucc_rc_cell *c = &st->cells[off + i];
    if (c->epoch != st->epoch) {
      c->epoch = st->epoch;
      c->w = c->r1 = c->r2 = CUCC_RC_NONE;
    }
    if (write) {
      if (cucc_rc_conflict(c->w, me)) {
        int same = val && ((const uint8_t *)val)[i] == *(const uint8_t *)(a + i);
        __cucc_rc_hazard(c->ws, c->w & CUCC_RC_TMASK, s, thr, off + i, same ? 3 : 0, l, blk);
      } else if (cucc_rc_conflict(c->r1, me))
        __cucc_rc_hazard(c->rs, c->r1 & CUCC_RC_TMASK, s, thr, off + i, 1, l, blk);
      else if (cucc_rc_conflict(c->r2, me))
        __cucc_rc_hazard(c->rs, c->r2 & CUCC_RC_TMASK, s, thr, off + i, 1, l, blk);
      c->w = me;
      c->ws = s;
    } else {
      if (cucc_rc_conflict(c->w, me))
        __cucc_rc_hazard(c->ws, c->w & CUCC_RC_TMASK, s, thr, off + i, 2, l, blk);
      if (c->r1 == CUCC_RC_NONE || (c->r1 & CUCC_RC_TMASK) == thr) {
        c->r1 = me;
        c->rs = s;
      } else if (c->r2 == CUCC_RC_NONE || (c->r2 & CUCC_RC_TMASK) == thr) {
        c->r2 = me;
      }
    }
  }
}
"#;

/// A C string literal for `s`.
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!(Sanitize::parse("memcheck"), Ok(Sanitize::Memcheck));
        assert_eq!(Sanitize::parse(" racecheck "), Ok(Sanitize::Racecheck));
        assert_eq!(Sanitize::parse(""), Ok(Sanitize::Off));
        assert_eq!(Sanitize::parse("none"), Ok(Sanitize::Off));
        let e = Sanitize::parse("initcheck").unwrap_err();
        assert!(e.contains("initcheck"), "{e}");
    }

    #[test]
    fn c_strings_escape() {
        assert_eq!(c_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\012\"");
    }
}
