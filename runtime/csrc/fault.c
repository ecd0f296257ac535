/* Containment of memory faults in kernel code (docs/runtime.md, "Faults").
 *
 * A worker runs each chunk of a launch through cucc_run_guarded, which
 * marks the thread as running kernel code. A SIGSEGV or SIGBUS raised there
 * is caught by cucc_fault_handler, which records the faulting address and
 * jumps back to the guarded call (only C frames, the kernel's, are
 * skipped); the runtime then reports cudaErrorIllegalAddress. Faults
 * anywhere else go to the handler that was installed before, or to the
 * default action. Written in C because sigsetjmp returns twice, which Rust
 * code must not call. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

typedef void (*cucc_entry_fn)(void **args, const void *launch, uint32_t begin, uint32_t end,
                              void *scratch);

static __thread sigjmp_buf *cucc_fault_jump;
static __thread uintptr_t cucc_fault_address;
static __thread int cucc_fault_signal;
static struct sigaction cucc_old_segv, cucc_old_bus;

/* An alternate signal stack per thread that runs kernels: a kernel that
 * overflows its stack faults on the guard page below it, and the handler
 * could not run on the exhausted stack (the process would end). Mapped at
 * the thread's first chunk, released when the thread exits. */
#define CUCC_ALTSTACK_SIZE (64 * 1024)
static __thread int cucc_altstack_done;
static pthread_key_t cucc_altstack_key;
static pthread_once_t cucc_altstack_once = PTHREAD_ONCE_INIT;

static void cucc_altstack_release(void *mem) {
  stack_t off = {.ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0};
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == mem) sigaltstack(&off, NULL);
  munmap(mem, CUCC_ALTSTACK_SIZE);
}

static void cucc_altstack_key_init(void) {
  pthread_key_create(&cucc_altstack_key, cucc_altstack_release);
}

static void cucc_ensure_altstack(void) {
  if (cucc_altstack_done) return;
  cucc_altstack_done = 1;
  stack_t cur;
  /* A stack the program (or a sanitizer) set up stays. */
  if (sigaltstack(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE)) return;
  void *mem = mmap(NULL, CUCC_ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return;
  stack_t ss = {.ss_sp = mem, .ss_flags = 0, .ss_size = CUCC_ALTSTACK_SIZE};
  if (sigaltstack(&ss, NULL) != 0) {
    munmap(mem, CUCC_ALTSTACK_SIZE);
    return;
  }
  pthread_once(&cucc_altstack_once, cucc_altstack_key_init);
  pthread_setspecific(cucc_altstack_key, mem);
}

/* Runs entry(args, launch, begin, end, scratch); 0 when it returned, else
 * the signal that stopped it (its address in *address). The jump buffer
 * does not save the signal mask: the handler runs with SA_NODEFER, so
 * nothing is blocked when it jumps back (saving the mask would cost a
 * system call per chunk). */
int cucc_run_guarded(cucc_entry_fn entry, void **args, const void *launch, uint32_t begin,
                     uint32_t end, void *scratch, uintptr_t *address) {
  sigjmp_buf buf;
  sigjmp_buf *volatile outer = cucc_fault_jump;
  cucc_ensure_altstack();
  if (sigsetjmp(buf, 0)) {
    cucc_fault_jump = outer;
    *address = cucc_fault_address;
    return cucc_fault_signal;
  }
  cucc_fault_jump = &buf;
  entry(args, launch, begin, end, scratch);
  cucc_fault_jump = outer;
  return 0;
}

static void cucc_fault_handler(int sig, siginfo_t *info, void *context) {
  if (cucc_fault_jump) {
    cucc_fault_address = (uintptr_t)info->si_addr;
    cucc_fault_signal = sig;
    siglongjmp(*cucc_fault_jump, 1);
  }
  /* Not kernel code: what would have happened without the runtime. */
  struct sigaction *old = sig == SIGBUS ? &cucc_old_bus : &cucc_old_segv;
  if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
    old->sa_sigaction(sig, info, context);
  } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
    old->sa_handler(sig);
  } else {
    /* Restore the default and return: the access faults again and the
     * process ends as it would have. */
    sigaction(sig, old, NULL);
  }
}

/* Installs the handler for SIGSEGV and SIGBUS (once); 0 on success. */
int cucc_install_fault_handler(void) {
  struct sigaction sa;
  sa.sa_sigaction = cucc_fault_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
  if (sigaction(SIGSEGV, &sa, &cucc_old_segv) != 0) return -1;
  if (sigaction(SIGBUS, &sa, &cucc_old_bus) != 0) return -1;
  return 0;
}
