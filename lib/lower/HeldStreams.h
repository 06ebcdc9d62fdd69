//===--- HeldStreams.h - Stream variables that only hold fresh streams -*- C++
//-*-===//
//
// A stream kept where it outlives a call (a C++ member or global, a Python
// attribute or module global) is a stream of its own, another than the
// caller's current stream in every function, when every write of it the
// unit makes gives it a fresh stream (getStreamFromPool(),
// cudaStreamCreate, torch.cuda.Stream()) or, in Python, None (which
// `torch.cuda.stream(None)` does not switch to), and one gives it a fresh
// stream (StreamProof::Member, Attribute, Global). The rule, for both
// front ends: each reads the writes of one variable into HeldStreamWrites,
// in the order of the unit, and asks freshProof(). What a front end cannot
// read, or what may hold another stream (a C++ null placeholder that some
// constructor leaves: the legacy default stream), is a write of Other.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_HELDSTREAMS_H
#define STREAMSAFE_LIB_LOWER_HELDSTREAMS_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <optional>

namespace streamsafe::lower {

/// What one write gives the variable.
enum class StreamGiven : uint8_t {
  Fresh,   ///< a new stream
  Nothing, ///< Python's None: no stream, entered as none
  Other,   ///< anything else, or a write the front end cannot read
};

struct HeldStreamWrite {
  StreamGiven Given = StreamGiven::Other;
  /// In its own class's construction (a constructor or an in-class
  /// initializer; `__init__`), where the reader looks for it first.
  bool AtConstruction = false;
};

/// The write the proof's note names (its index in \p Writes): the first
/// fresh one at construction, else the first fresh one. None: not proven.
std::optional<unsigned> freshProof(llvm::ArrayRef<HeldStreamWrite> Writes);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_HELDSTREAMS_H
