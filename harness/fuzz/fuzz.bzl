"""fuzz_target: one libFuzzer target, built two ways (README.md, "Untrusted input").

For `name` it declares
  :<name>_lib              the LLVMFuzzerTestOneInput of `srcs` (alwayslink);
  :<name>                  a binary: under --config=fuzz (clang, -fsanitize=fuzzer) the libFuzzer
                           driver, otherwise the replay main (runs the files or folders it is given);
  :<name>_regression_test  the replay main over corpus/<name>/ and regressions/<name>/ (bazel test).
"""

def fuzz_target(name, srcs, deps = []):
    native.cc_library(
        name = name + "_lib",
        srcs = srcs,
        deps = deps + ["//harness/fuzz:fuzz_util"],
        alwayslink = 1,
    )
    native.cc_binary(
        name = name,
        deps = [":" + name + "_lib"] + select({
            "//harness/fuzz:libfuzzer": [],
            "//conditions:default": ["//harness/fuzz:replay_main"],
        }),
        linkopts = select({
            "//harness/fuzz:libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
    )
    native.cc_test(
        name = name + "_regression_test",
        size = "small",
        deps = [
            ":" + name + "_lib",
            "//harness/fuzz:replay_main",
        ],
        data = native.glob(["corpus/" + name + "/**", "regressions/" + name + "/**"]),
        args = [
            "--require-inputs",
            "harness/fuzz/corpus/" + name,
            "harness/fuzz/regressions/" + name,
        ],
    )
