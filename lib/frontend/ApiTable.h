//===--- ApiTable.h - The one table of stream APIs ---------------*- C++
//-*-===//
//
// Every consumer that asks "what does this call do to streams" (the
// lowering, the pre-scan, streamsafe-default-stream-launch) asks this table.
// Built-in rows (ApiRows.cpp) are keyed by fully qualified name and matched
// against declarations, so every spelling (at::cuda:: for c10::cuda::,
// using-declarations, typedefs, auto) reaches the same row, and a user class
// named `Stream` in another namespace reaches none. The user's framework
// APIs (ApiConfig) come first. Lookups are cached per declaration.
// docs/api-model.md says what each effect does to the state.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_APITABLE_H
#define STREAMSAFE_LIB_FRONTEND_APITABLE_H

#include "lib/frontend/ApiConfig.h"
#include "lib/model/ApiEffect.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace clang {
class NamedDecl;
class FunctionDecl;
class CXXRecordDecl;
} // namespace clang

namespace streamsafe {

/// The canonical qualified name of a declaration
/// ("c10::cuda::getStreamFromPool").
std::string canonicalName(const clang::NamedDecl *D);
/// "std::future<void>::get" without its template arguments: std::future::get.
std::string withoutTemplateArguments(llvm::StringRef Name);
/// True when \p D is declared (at any depth) inside namespace \p NS at top
/// level.
bool isInTopNamespace(const clang::Decl *D, llvm::StringRef NS);
/// std::thread / std::jthread: constructing one spawns a thread.
bool isThreadClass(const clang::CXXRecordDecl *RD);
/// Whether a call with effect \p E runs a callable argument on another
/// thread.
bool spawnsThread(ApiEffect E);
/// `worker`, `&worker`: a free function named as a thread's body (a method
/// needs its object, handed separately: not followed).
const clang::FunctionDecl *namedFunction(const clang::Expr *E);

/// True for the class templates that hold one tensor (shared_ptr,
/// unique_ptr, optional): a specialisation for at::Tensor is followed as the
/// tensor it holds.
bool isTensorHandleTemplate(llvm::StringRef QualifiedName);

/// What a C++ declaration is to the model: the calls and classes the
/// recognisers of hand-written guards and event wrappers, and the syntax
/// helpers they share with the lowering (stripValue, thisField), ask.
class ApiLookup {
public:
  virtual ~ApiLookup() = default;
  /// What a call of \p FD does (ApiEffect::None: nothing the model knows).
  virtual const ApiEntry &lookup(const clang::FunctionDecl *FD) = 0;
  virtual ValueClass classify(const clang::CXXRecordDecl *RD) = 0;
  ValueClass classify(clang::QualType T);
};

/// The model's rows (lib/model) and the user's configuration, matched
/// against declarations and cached per declaration. It recognises nothing
/// from code, so the recognisers can ask it without asking themselves.
class BuiltinApis final : public ApiLookup {
public:
  explicit BuiltinApis(const ApiConfig &Config) : Config(Config) {}
  const ApiEntry &lookup(const clang::FunctionDecl *FD) override;
  ValueClass classify(const clang::CXXRecordDecl *RD) override;
  using ApiLookup::classify;

private:
  ApiEntry compute(const clang::FunctionDecl *FD);

  const ApiConfig &Config;
  llvm::DenseMap<const clang::FunctionDecl *, ApiEntry> Calls;
  llvm::DenseMap<const clang::CXXRecordDecl *, ValueClass> Records;
};

/// The table of one translation unit's analysis: the built-in rows, and the
/// rows the recognisers add, once per class, for hand-written stream guards
/// (StreamSwitchers.h) and event wrappers (EventWrappers.h).
class ApiTable final : public ApiLookup {
public:
  explicit ApiTable(const ApiConfig &Config)
      : Config(Config), Builtin(Config) {}

  const ApiEntry &lookup(const clang::FunctionDecl *FD) override;
  ValueClass classify(const clang::CXXRecordDecl *RD) override;
  using ApiLookup::classify;
  /// For a guard class: the constructor argument that becomes the current
  /// stream (0 but for a hand-written switcher, see StreamSwitchers.h).
  unsigned guardStreamParameter(const clang::CXXRecordDecl *RD);
  const ApiConfig &config() const { return Config; }
  /// What mentionsStreamApis found for each function it scanned (its
  /// callees' answers are part of a caller's): one scan per function.
  llvm::DenseMap<const clang::FunctionDecl *, bool> StreamMentions;
  /// What waitsForHost found for each function it scanned.
  llvm::DenseMap<const clang::FunctionDecl *, bool> HostWaits;
  /// What classUsesStreams found for each class it scanned.
  llvm::DenseMap<const clang::CXXRecordDecl *, bool> ClassStreamMentions;

private:
  ValueClass recognise(const clang::CXXRecordDecl &RD);

  const ApiConfig &Config;
  BuiltinApis Builtin;
  llvm::DenseMap<const clang::CXXRecordDecl *, ValueClass> Records;
  llvm::DenseMap<const clang::CXXRecordDecl *, unsigned> GuardParameters;
  /// Methods of event wrappers recognised from their code.
  llvm::DenseMap<const clang::FunctionDecl *, ApiEntry> Wrapped;
  /// Functions of the unit that hand a parameter to a thread spawner
  /// (SpawnWrappers.h), by canonical declaration.
  llvm::DenseMap<const clang::FunctionDecl *, bool> Spawners;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_APITABLE_H
