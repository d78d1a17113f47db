/* The tests' random numbers: xoshiro256** seeded through splitmix64, identical on every
 * platform. Plain C without cmocka: gen.h (the unit tests) and tests/differential draw
 * from it, each with its own seeding. */
#ifndef DLSCHED_XOSHIRO_H
#define DLSCHED_XOSHIRO_H

#include <stdint.h>

/* splitmix64: the next seed word from *x (advanced). */
static inline uint64_t test_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The four state words from a seed and a salt (or stream). */
static inline void test_xoshiro_seed(uint64_t s[4], uint64_t seed, uint64_t salt)
{
    uint64_t x = seed ^ (salt * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++)
        s[i] = test_splitmix(&x);
}

static inline uint64_t test_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256**: the next number, the state advanced. */
static inline uint64_t test_xoshiro_next(uint64_t s[4])
{
    uint64_t result = test_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = test_rotl(s[3], 45);
    return result;
}

#endif /* DLSCHED_XOSHIRO_H */
