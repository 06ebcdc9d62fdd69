//===--- LocalRecords.h - Local structs followed member by member -*- C++
//-*-===//
//
// A local aggregate that holds tensors (`Holder h{at::empty_like(x)}`,
// `Bufs b; b.a = t;`) and that the analysed function uses only through its
// members (`h.t`: never copied, passed, returned, its address taken, or a
// method called on it) is its members: each tensor member is a local of its
// own, bound by the brace initialiser and by `h.t = u`, and it dies when
// the struct does, at the end of its scope, when the caching allocator may
// give its block to other work. One member variable stands for a member of
// every object of the record (the IR has one per declaration), so the
// struct must be the function's only local of its record, and the function
// no method of it; a helper run in place is not so read.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_LOCALRECORDS_H
#define STREAMSAFE_LIB_FRONTEND_LOCALRECORDS_H

#include "lib/frontend/ApiTable.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class Expr;
class FieldDecl;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace streamsafe {

class LocalRecords {
public:
  explicit LocalRecords(ApiLookup &Table) : Table(Table) {}

  /// Whether \p V, a local of \p Fn, is followed member by member.
  bool followed(const clang::VarDecl *V, const clang::FunctionDecl *Fn);
  /// The followed local whose member \p E (`h.t`) names, or null.
  const clang::VarDecl *ownerOf(const clang::Expr *E,
                                const clang::FunctionDecl *Fn);
  /// Whether \p FD is a member of a followed local of \p Fn's (its
  /// variable is then no persistent member, but a local).
  bool followedMember(const clang::FieldDecl *FD,
                      const clang::FunctionDecl *Fn);

private:
  ApiLookup &Table;
  /// Per function: the record of its followed local, if any.
  llvm::DenseMap<const clang::FunctionDecl *, const clang::RecordDecl *>
      Records;
  const clang::RecordDecl *recordOf(const clang::FunctionDecl *Fn);
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_LOCALRECORDS_H
