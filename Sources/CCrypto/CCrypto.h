// SHA256_Init and SHA1_Init are deprecated in OpenSSL 3 in favour of EVP, which is what
// MessageDigest avoids (see there); they are kept and supported through the 3.x series.
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include <openssl/evp.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
