//===--- LoopCounters.h - Counters, parities, windows, stream pairs -*- C++
//-*-=//
//
// The state of LoopCounters.cpp for one body being lowered: the counter
// loops it is inside (`for i in range(n)`), with the parity of each counter
// and the list elements the loop indexes by it, and the lists of streams
// the body binds once (`streams = [current_stream(), side]`).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_LOOPCOUNTERS_H
#define STREAMSAFE_LIB_PYTHON_LOOPCOUNTERS_H

#include "lib/ir/IR.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace streamsafe::py {

/// The offsets from the counter a window follows: xs[i - 1], xs[i],
/// xs[i + 1].
constexpr int MinOffset = -1, MaxOffset = 1;
/// At most this many first iterations are lowered one by one.
constexpr int64_t MaxPeeled = 3;
/// A loop of at most this many iterations, all known, is unrolled exactly.
constexpr int64_t MaxExact = 4;

/// A `for i in range(...)` loop whose counter steps by one and that its
/// body never rebinds. Its body is lowered once per parity (two copies in
/// sequence, the loop's back edge after the second), so `xs[i % 2]` and
/// `xs[(i - 1) % 2]` name the slots they name, and what each copy allocates
/// is a storage of its own: the element an iteration made is not the one
/// the next makes at the same line. Each list the body indexes by i plus a
/// constant is a window of element variables that each iteration shifts:
/// what `xs[i]` held is `xs[i - 1]` in the next.
struct CounterLoop {
  std::string Name;
  /// The first value (range(a, b) of an integer a; range(n): 0).
  std::optional<int64_t> Start;
  /// The stop as written, split into a base and a constant (`n + 1`: n, 1).
  std::string StopBase;
  int64_t StopOffset = 0;
  /// Lowered once per parity: the body tests its parity or has windows.
  bool ByParity = false;
  /// "The counter is odd in the first copy" when the start is not known: a
  /// remembered test (Assumption) that never changes.
  VarId Parity = NoVar;
  /// In the copy being lowered: whether the counter is odd, when known;
  /// else whether its parity is the opposite of Parity's.
  std::optional<bool> Odd;
  bool Opposite = false;
  /// The first iterations are lowered one by one (to PeelTo) when the body
  /// tests the counter against constants: the counter's value in the one
  /// being lowered (each test decided), and in the loop after them a value
  /// it is at least.
  std::optional<int64_t> Known, AtLeast, PeelTo;
  /// The stop is known too and near: every iteration is peeled, and no
  /// loop runs after them.
  bool Exact = false;
  /// `i < x` of the stop's base x (of range(x + 1)): its remembered test.
  std::map<std::string, VarId> Bounds;
  /// The element variables of one list's window. Each copy of the body
  /// has its own (what a copy joins of them is its own), and the elements
  /// an iteration leaves for the next are carried in variables of their own
  /// from the end of one copy to the start of the next.
  using Elements = std::array<VarId, MaxOffset - MinOffset + 1>;
  struct Window {
    std::map<unsigned, Elements> ByCopy;
    Elements Carried{};
  };
  std::map<std::string, Window> Windows;
  /// The windows whose elements the body uses as tensors only can be
  /// (`out[i - 1].transpose(0, 1)`): what code the analysis does not see
  /// stores there is a tensor it made.
  std::set<std::string> TensorWindows;
  /// The copy of the body being lowered.
  unsigned Copy = 0;

  VarId element(const std::string &List, int Offset) const {
    auto It = Windows.find(List);
    if (It == Windows.end() || Offset < MinOffset || Offset > MaxOffset)
      return NoVar;
    auto C = It->second.ByCopy.find(Copy);
    return C == It->second.ByCopy.end() ? NoVar : C->second[Offset - MinOffset];
  }
};

struct CounterState {
  /// The counter loops being lowered, innermost last.
  std::vector<CounterLoop> Loops;
  /// Lists of streams bound once, by name: a stream variable per element.
  std::map<std::string, std::vector<VarId>> StreamLists;
  /// Which copy of the loop bodies is being lowered (0: code lowered once):
  /// what a copy allocates is an object of its own.
  uint64_t Copy = 0;

  /// The innermost loop counting with \p Name, if any.
  const CounterLoop *loop(const std::string &Name) const {
    for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
      if (It->Name == Name)
        return &*It;
    return nullptr;
  }
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_LOOPCOUNTERS_H
