/* libFuzzer's entry points around a target's dls_fuzz_one(): linked into the fuzz_TARGET
 * programs of builds configured with --enable-fuzzing (clang, -fsanitize=fuzzer). */
#include <config.h>

#include <stddef.h>
#include <stdint.h>

#include "harness.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    dls_fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return dls_fuzz_one(data, size);
}
