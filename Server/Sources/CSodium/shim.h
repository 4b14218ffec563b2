// libsodium, for OwnTracks payload encryption (crypto_secretbox).
#include <sodium.h>
