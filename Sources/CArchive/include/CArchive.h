// libarchive (Debian's libarchive13; libarchive-dev for the headers), for bundles, loaded at run
// time, and the few system calls and CPU instructions DiagBundle needs beside it.
//
// `diag` does not link libarchive: with it come nettle, xml2, ICU, lzma, lz4, bz2, acl and zstd,
// ten shared libraries whose loading and symbol binding cost every `diag` run about 1.7 ms (a
// one-minute window query is a 20 ms target), while only the bundle commands use them. The
// libarchive functions keep their own names and types (from its headers) and forward to the
// library, which carchive_load opens on first use.
#ifndef CARCHIVE_H
#define CARCHIVE_H
#include <stddef.h>
#include <archive.h>
#include <archive_entry.h>
#include <locale.h>

/// Opens libarchive.so.13 and binds the functions DiagBundle uses, once per process
/// (thread-safe). Returns 0, or -1 with the reason (dlopen's or dlsym's message) in `error`.
int carchive_load(char *error, size_t capacity);

// LC_CTYPE_MASK is a macro Swift does not import. libarchive 3.6.2 crashes on non-ASCII
// UTF-8 pathnames in the C locale (issue 2233), so the writing thread switches to this one.
static inline locale_t carchive_new_utf8_ctype_locale(void) {
    return newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

#include <errno.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

// sync_file_range(2) with SYNC_FILE_RANGE_WRITE, which Swift does not see (_GNU_SOURCE only):
// starts writing a file's dirty pages to the disk without waiting, so that the bundle's final
// fsync has little left to wait for. -1 with errno ENOSYS where it is unknown.
#include <fcntl.h>

static inline int carchive_start_writeback(int descriptor) {
#ifdef SYS_sync_file_range
    return (int)syscall(SYS_sync_file_range, descriptor, (long long)0, (long long)0, 2u /* SYNC_FILE_RANGE_WRITE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// SHA-256 block compression with the x86 SHA extensions, for the bundle's checksums: Linux has
// no CryptoKit, and hashing a gigabyte with portable code costs more than compressing it.
// DiagBundle's SHA256 calls it only when carchive_cpu_has_sha_extensions() says the CPU has them.
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

static inline int carchive_cpu_has_sha_extensions(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & (1u << 19)) || !(c & (1u << 9))) return 0;  // SSE4.1, SSSE3
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (int)((b >> 29) & 1u);
}

static const uint32_t carchive_sha256_round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/// Runs `blocks` 64-byte blocks of `data` through the compression function (FIPS 180-4 6.2.2).
__attribute__((target("sha,sse4.1,ssse3")))
static inline void carchive_sha256_compress_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abefSaved = abef, cdghSaved = cdgh;
        __m128i words[4];
        for (int group = 0; group < 16; group++) {
            __m128i w;
            if (group < 4) {
                w = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), byteSwap);
            } else {
                // words[group % 4] holds W of group-4, then group-3, group-2, group-1 around the ring.
                __m128i t = _mm_sha256msg1_epu32(words[group % 4], words[(group + 1) % 4]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(words[(group + 3) % 4], words[(group + 2) % 4], 4));
                w = _mm_sha256msg2_epu32(t, words[(group + 3) % 4]);
            }
            words[group % 4] = w;
            __m128i message = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)&carchive_sha256_round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
        }
        abef = _mm_add_epi32(abef, abefSaved);
        cdgh = _mm_add_epi32(cdgh, cdghSaved);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}
#endif

#endif
