//===--- StreamSections.h - Methods that open and close a section -*- C++
//-*-===//
//
// A class may split a stream guard across two methods: `Begin()` saves the
// current stream in a member and sets another, `End()` sets the saved one
// back. The stream the opener leaves set is the section's, closed by the
// caller's call of the partner: it is not reported inside the opener, and
// setting the saved member back is a restore. Where a caller opens a
// section it does not close on some path, the methods run in place there
// and it is reported.
//
// The rule, for both front ends: each reads every method of a class into a
// SectionMethod (members by name: a C++ field, a Python attribute of
// `self`) and asks the class's StreamSections.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_STREAMSECTIONS_H
#define STREAMSAFE_LIB_LOWER_STREAMSECTIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>

namespace streamsafe::lower {

/// What one method does with the streams of its object.
struct SectionMethod {
  /// The members it saves the current stream in (`saved = current`).
  llvm::SmallVector<std::string, 2> Saves;
  /// Each stream it makes current: a member's name, or empty for any other
  /// stream (a parameter, a pool stream, a call's result).
  llvm::SmallVector<std::string, 2> Sets;
};

/// The methods of one class, and which of them open a section.
class StreamSections {
public:
  /// Reads one method (\p Method: the front end's key for it).
  void add(const void *Method, SectionMethod M);
  /// Whether \p Method sets a stream other than a saved one, after saving
  /// the current stream in a member the class sets back elsewhere.
  bool opens(const void *Method) const;
  /// Whether some method saves the current stream in \p Member: setting it
  /// back is a restore.
  bool savesCurrent(llvm::StringRef Member) const {
    return Saved.contains(Member);
  }

private:
  llvm::StringSet<> Saved, SetFrom;
  llvm::DenseMap<const void *, SectionMethod> Methods;
};

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_STREAMSECTIONS_H
