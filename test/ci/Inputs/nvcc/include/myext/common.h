#pragma once
#include <c10/macros/Macros.h> // declares namespace c10: a LibTorch TU

namespace myext {
constexpr int kThreads = 128;
}
