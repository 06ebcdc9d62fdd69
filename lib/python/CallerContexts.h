//===--- CallerContexts.h - The stream every caller runs a def under -*- C++
//-*-===//
//
// A def analysed on its own starts on its caller's current stream, which
// may be any stream, the default one too. The project often says more: a
// def called only inside `with torch.cuda.stream(self.stream):` of a
// forward loop in another module, or only from defs that are, runs on a
// side stream. Work it hands to a new thread then runs on another stream
// than its own (issue 43, calling contexts).
//
// The callers are found by name in every file of the project
// (ModuleCache::projectFiles), each read as Python. A def's entry is a side
// stream when every occurrence of its name outside definitions, imports
// and keywords is a call, and each call is either inside a `with` block
// that enters a stream its def creates (a local bound only to
// `torch.cuda.Stream()`, or an attribute its class only ever gives fresh
// streams), or made by a def whose entry is a side stream by the same rule.
// A method is named only as an attribute (a bare name is another def), and
// `self.name(...)` in a class that defines its own `name` calls that one.
// A name used as a value (a callback, `getattr`), a call at module level,
// in a lambda or under any other stream, a def that calls set_stream, a
// name no code calls, and methods Python or PyTorch call for the code
// (dunders, forward, backward, run) leave the entry unknown: silent.
// Code under test folders and test files is not a caller: tests call defs
// out of the context the program gives them.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_CALLERCONTEXTS_H
#define STREAMSAFE_LIB_PYTHON_CALLERCONTEXTS_H

#include "lib/python/LoweredFunction.h"
#include "lib/python/Modules.h"
#include <optional>
#include <utility>
#include <vector>

namespace streamsafe::py {

/// A place in a file of the project.
struct ProjectNode {
  const SourceFile *F = nullptr;
  TSNode N = {};
};

/// The side stream every caller runs a def under.
struct CallersStream {
  /// Where one caller makes it current: the with-item.
  ProjectNode SetAt;
  /// The calls that carry it to the def, the def's own call first.
  std::vector<ProjectNode> Calls;
};

/// Caller chains longer than this are not followed.
constexpr unsigned MaxCallerDepth = 6;
/// A name called in more places than this, or named in more other files,
/// is not followed.
constexpr unsigned MaxCallSites = 16;

/// The side stream every caller in the project runs \p Def (a def of \p F)
/// under; none when the project does not show one. \p Modules lists the
/// project's files and lends the modules it has parsed; the others are
/// parsed into \p Parsed, which must outlive the answer's nodes (the
/// analysis of one file: what it parsed goes with it).
std::optional<CallersStream>
callersStream(ModuleCache &Modules, ModuleCache &Parsed, const SourceFile &F,
              const Imports &I, HelperIndex &X, TSNode Def);

/// Whether \p Def's code hands work to another thread, the one place where
/// the callers' stream changes what is reported: only such defs ask.
bool spawnsThreads(TSNode Def, const SourceFile &F, const Imports &I);

/// Records \p C in \p L, the analysis of a def of \p F: sites in the
/// callers' files, and the IR's EntrySideSetAt and EntrySideCalls.
void noteCallersStream(LoweredFunction &L, const SourceFile &F,
                       const CallersStream &C);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_CALLERCONTEXTS_H
