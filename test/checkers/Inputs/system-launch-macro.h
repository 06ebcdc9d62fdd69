// A library's launch macro, in a header the compiler treats as a system
// header (like one found through -isystem): its body is not the user's code.
#pragma clang system_header
#define LIBRARY_LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
