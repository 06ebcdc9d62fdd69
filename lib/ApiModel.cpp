//===--- ApiModel.cpp - Names and types shared by the API families --------===//

#include "lib/ApiModel.h"
#include "lib/ApiConfig.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace streamsafe {

std::string canonicalName(const NamedDecl *D) {
  if (!D)
    return {};
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(D->getASTContext().getLangOpts());
  D->printQualifiedName(OS, Policy);
  return Name;
}

bool isInTopNamespace(const Decl *D, StringRef NS) {
  const DeclContext *Top = nullptr;
  for (const DeclContext *C = D->getDeclContext(); C && !C->isTranslationUnit();
       C = C->getParent())
    if (C->isNamespace())
      Top = C;
  const auto *N = dyn_cast_or_null<NamespaceDecl>(Top);
  return N && N->getName() == NS;
}

ValueClass classifyRecord(const CXXRecordDecl *RD, const ApiConfig *Config) {
  if (Config && Config->isEventClass(RD))
    return ValueClass::Event;
  if (Config && Config->isGuardClass(RD))
    return ValueClass::StreamGuard;
  StringRef Name = RD->getName();
  if (isInTopNamespace(RD, "at") && (Name == "Tensor" || Name == "TensorBase"))
    return ValueClass::Tensor;
  if (!isInTopNamespace(RD, "c10") && !isInTopNamespace(RD, "at"))
    return ValueClass::None;
  if (Name == "CUDAStream" || Name == "Stream")
    return ValueClass::Stream;
  if (Name == "CUDAEvent" || Name == "Event")
    return ValueClass::Event;
  if (Name == "CUDAStreamGuard" || Name == "StreamGuard")
    return ValueClass::StreamGuard;
  if (Name == "OptionalCUDAStreamGuard" || Name == "OptionalStreamGuard")
    return ValueClass::OptionalGuard;
  if (Name == "CUDAMultiStreamGuard" || Name == "MultiStreamGuard")
    return ValueClass::MultiGuard;
  return ValueClass::None;
}

ValueClass classifyType(QualType T, const ApiConfig *Config) {
  if (T.isNull())
    return ValueClass::None;
  T = T.getNonReferenceType();
  // cudaStream_t and cudaEvent_t are pointers to opaque driver structs.
  if (const auto *PT = T->getAs<PointerType>()) {
    if (const auto *RT = PT->getPointeeType()->getAs<RecordType>()) {
      StringRef N = RT->getDecl()->getName();
      if (N == "CUstream_st")
        return ValueClass::RawStream;
      if (N == "CUevent_st")
        return ValueClass::RawEvent;
    }
    return ValueClass::None;
  }
  if (const auto *RD = T->getAsCXXRecordDecl())
    return classifyRecord(RD, Config);
  return ValueClass::None;
}

ApiEffect classifyCall(StringRef Name) {
  for (auto *Family : {classifyStreamsApi, classifyEventsApi, classifySyncApi,
                       classifyAllocatorApi, classifyThreadsApi})
    if (ApiEffect E = Family(Name); E != ApiEffect::None)
      return E;
  return ApiEffect::None;
}

bool isTransparentCast(StringRef Name) {
  return Name == "std::move" || Name == "std::forward" ||
         Name == "std::as_const";
}

} // namespace streamsafe
