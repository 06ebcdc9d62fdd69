//===--- ObjectStreams.h - Streams kept in members and globals --*- C++ -*-===//
//
// What the translation unit as a whole tells about stream variables that
// outlive a call: a member of a class, a global, a function-local static.
// One scan of the unit's own code (not of system headers) collects every
// write of each such variable: an assignment, a constructor's initializer,
// an in-class initializer, a cudaStreamCreate*(&m, ...), and any use that
// could change it behind the scan's back (its address or a non-const
// reference handed to other code). A variable that is only ever given
// fresh streams (getStreamFromPool(), cudaStreamCreate*) is another stream
// than the caller's current one in every function (StreamProof::Member,
// StreamProof::Global). The same scan notes, for each stream parameter,
// whether some call in the unit passes it the current stream, which rules
// out taking the parameter for a side stream (SideParameters.h), and the
// functions it names as threads' bodies.
//
// Computed once per translation unit, on the first question.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_OBJECTSTREAMS_H
#define STREAMSAFE_LIB_FRONTEND_OBJECTSTREAMS_H

#include "lib/frontend/ApiTable.h"
#include "lib/frontend/StreamOperands.h"
#include "lib/ir/IR.h"
#include "lib/lower/KeptTensors.h"
#include "lib/lower/StreamSections.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <utility>

namespace clang {
class ASTContext;
class CXXRecordDecl;
class Expr;
class FieldDecl;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace streamsafe {

/// A stream variable proven to hold only fresh streams, and the expression
/// that gives it the first of them (for the note).
struct HeldStream {
  StreamProof Proof = StreamProof::None;
  const clang::Stmt *At = nullptr;
};

/// True when \p E is the current stream: getCurrentCUDAStream() or a local
/// variable initialised from it.
bool isCurrentStream(const clang::Expr *E, ApiLookup &Table);

class ObjectStreams {
public:
  ObjectStreams(clang::ASTContext &Ctx, ApiLookup &Table)
      : Ctx(Ctx), Table(Table) {}

  /// What a member or global stream variable is known to hold.
  HeldStream held(const clang::ValueDecl *D);
  /// True when a call in the unit (or the default argument) passes the
  /// current stream for \p P, or for the parameter \p P overrides.
  bool givenCurrentStream(const clang::ParmVarDecl *P);
  /// True when code of the unit names \p FD as a thread's body
  /// (`std::thread(FD, ...)`, `std::async(policy, FD)`): the stream it sets
  /// is its thread's, not a caller's.
  bool threadBody(const clang::FunctionDecl *FD);
  /// True when \p FD is a method that saves the current stream in a member
  /// and sets another, and its class sets that member back elsewhere (a
  /// `Begin()` to an `End()`): the stream it leaves set is the section's
  /// (StreamSections.cpp).
  bool opensSection(const clang::FunctionDecl *FD);
  /// True when some method of \p F's class saves the current stream in it:
  /// setting it back is a restore.
  bool savedCurrent(const clang::FieldDecl *F);
  /// What \p F's class tells of a tensor its methods keep in \p F: whether
  /// it records any tensor, uses \p F in a method that makes no other
  /// stream current, returns it from a method (KeptMembers.cpp; the rule
  /// is lib/lower/KeptTensors.h).
  void keptEvidence(const clang::FieldDecl *F, lower::KeptEvidence &E);

private:
  /// The sections of a class's methods (the rule: lib/lower/StreamSections.h).
  const lower::StreamSections &sections(const clang::CXXRecordDecl *RD);
  llvm::DenseMap<const clang::CXXRecordDecl *, lower::StreamSections> Sections;
  /// keptEvidence's scan of a class.
  struct KeptScan {
    bool Records = false;
    llvm::SmallPtrSet<const clang::FieldDecl *, 4> UsedPlainly, Returned;
  };
  llvm::DenseMap<const clang::CXXRecordDecl *, KeptScan> Kept;

  void scan();
  bool trackable(const clang::ValueDecl *D) const;
  /// For a member of an implicit instantiation of a class template: the
  /// template's own member it is made from (null otherwise).
  const clang::FieldDecl *patternField(const clang::FieldDecl *FD) const;

  clang::ASTContext &Ctx;
  ApiLookup &Table;
  bool Scanned = false;
  /// The variables proven to hold only fresh streams: the first creation.
  llvm::DenseMap<const clang::ValueDecl *, const clang::Stmt *> Vars;
  /// Parameters (a canonical declaration, an index) some call passes the
  /// current stream.
  llvm::DenseSet<std::pair<const clang::FunctionDecl *, unsigned>> GivenCurrent;
  llvm::DenseSet<const clang::FunctionDecl *> ThreadBodies;
  /// Members of an instantiation that an explicit specialization of a
  /// method writes.
  llvm::SmallPtrSet<const clang::FieldDecl *, 2> Specialized;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_OBJECTSTREAMS_H
