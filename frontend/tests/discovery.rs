//! Clang discovery errors. Alone in this test binary because it changes
//! the process environment.

use cucc_frontend::clang::Clang;
use cucc_frontend::FrontendError;

#[test]
fn discovery_errors_say_what_was_tried() {
    std::env::set_var("CUCC_CLANG", "/nonexistent/clang-99");
    let err = Clang::discover().unwrap_err();
    assert!(
        matches!(err, FrontendError::BadClangOverride { .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("CUCC_CLANG=/nonexistent/clang-99"),
        "{err}"
    );

    std::env::remove_var("CUCC_CLANG");
    let path = std::env::var_os("PATH");
    std::env::set_var("PATH", "/nonexistent");
    let err = Clang::discover().unwrap_err();
    if let Some(p) = path {
        std::env::set_var("PATH", p);
    }
    let text = err.to_string();
    assert!(matches!(err, FrontendError::ClangNotFound { .. }), "{text}");
    assert!(
        text.contains("`clang-16`") && text.contains("`clang`"),
        "{text}"
    );
    assert!(text.contains("apt-get install clang-16"), "{text}");
}
