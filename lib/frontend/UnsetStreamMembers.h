//===--- UnsetStreamMembers.h - Stream members nothing sets ----*- C++ -*-===//
//
// A member call whose work runs on a cudaStream_t member of its object
// (StreamParameters.h: a handler's `stream_`) runs on the legacy default
// stream when that member is still the null stream its constructors gave
// it. That is proven for the whole translation unit, not one path:
//   * every constructor of the member's class gives it a default stream (its
//     initializer, or the member's own `= nullptr`), and the class has no
//     friends;
//   * every other function that assigns it (a `SetCUDAStream`) is never
//     named in the translation unit;
//   * the object is a private member of the calling class, which has no
//     friends and whose every method is defined in this translation unit
//     and hands the object out nowhere (no reference or pointer to it
//     returned, none given to a function defined elsewhere): no code
//     elsewhere can reach the object to set its stream.
// Anything else (a local object, a public member, a method defined in
// another unit) is not judged.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_UNSETSTREAMMEMBERS_H
#define STREAMSAFE_LIB_FRONTEND_UNSETSTREAMMEMBERS_H

#include "lib/frontend/ApiTable.h"
#include "lib/ir/Findings.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include <optional>

namespace clang {
class ASTContext;
class CXXMemberCallExpr;
class FieldDecl;
class FunctionDecl;
} // namespace clang

namespace streamsafe {

/// Why a stream member is a default stream at a call.
struct UnsetStreamMember {
  /// The constructor's initializer of the member, or its own initializer.
  clang::SourceLocation InitializedAt;
  StreamOrigin Origin = StreamOrigin::Null;
  /// A function that assigns the member and is never named here (null:
  /// none assigns it).
  const clang::FunctionDecl *Setter = nullptr;
};

class UnsetStreamMembers {
public:
  UnsetStreamMembers(clang::ASTContext &Ctx, ApiTable &Table)
      : Ctx(Ctx), Table(Table) {}

  /// Whether \p Member of \p Call's object is still its constructors'
  /// default stream (see above).
  std::optional<UnsetStreamMember> atCall(const clang::CXXMemberCallExpr &Call,
                                          const clang::FieldDecl &Member);

private:
  bool closedHolder(const clang::CXXMemberCallExpr &Call);
  std::optional<UnsetStreamMember> initialValue(const clang::FieldDecl &Member);
  bool named(const clang::FunctionDecl &F);

  clang::ASTContext &Ctx;
  ApiTable &Table;
  /// The functions the translation unit names anywhere, and the names of
  /// members named where the callee is not yet known (templates): filled
  /// once, on the first question.
  bool Scanned = false;
  llvm::DenseSet<const clang::Decl *> Named;
  llvm::StringSet<> NamedDependently;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_UNSETSTREAMMEMBERS_H
