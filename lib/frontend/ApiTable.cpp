//===--- ApiTable.cpp - Lookups in the table of stream APIs ---------------===//

#include "lib/frontend/ApiTable.h"
#include "lib/frontend/EventWrappers.h"
#include "lib/frontend/SpawnWrappers.h"
#include "lib/frontend/StreamSwitchers.h"
#include "lib/model/ApiRows.h"
#include "lib/model/TensorMethods.h"
#include "lib/model/TorchFunctions.h"
#include "clang/AST/ASTContext.h"
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

std::string withoutTemplateArguments(llvm::StringRef Name) {
  std::string Out;
  int Depth = 0;
  for (char C : Name) {
    if (C == '<')
      ++Depth;
    else if (C == '>' && Depth > 0)
      --Depth;
    else if (Depth == 0)
      Out.push_back(C);
  }
  return Out;
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

bool isTensorHandleTemplate(llvm::StringRef QualifiedName) {
  return QualifiedName == "std::shared_ptr" ||
         QualifiedName == "std::unique_ptr" ||
         QualifiedName == "std::optional" || QualifiedName == "c10::optional";
}

// c10d::Work or a class derived from it (ProcessGroupNCCL::WorkNCCL).
static bool isWorkClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  if (canonicalName(RD) == "c10d::Work")
    return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (isWorkClass(B.getType()->getAsCXXRecordDecl()))
      return true;
  return false;
}

// The type a handle template holds: T of shared_ptr<T>, intrusive_ptr<T>.
static QualType heldType(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return Spec->getTemplateArgs()[0].getAsType();
}

ValueClass BuiltinApis::classify(const CXXRecordDecl *RD) {
  if (!RD)
    return ValueClass::None;
  auto [It, New] = Records.try_emplace(RD, ValueClass::None);
  if (!New)
    return It->second;
  std::string Name = canonicalName(RD);
  ValueClass C = cppClass(Name);
  // std::shared_ptr<at::Tensor>, std::optional<at::Tensor>, ...: the tensor
  // they hold (followed through *p, p->, value()).
  QualType Held = heldType(RD);
  if (C == ValueClass::None && isTensorHandleTemplate(Name) && !Held.isNull() &&
      classify(Held) == ValueClass::Tensor)
    C = ValueClass::Tensor;
  // c10::intrusive_ptr<c10d::Work> (or a subclass of it): the work handle
  // it holds, followed through `w->wait()`.
  if (C == ValueClass::None && Name == "c10::intrusive_ptr" && !Held.isNull() &&
      isWorkClass(Held->getAsCXXRecordDecl()))
    C = ValueClass::Event;
  if (Config.EventClasses.contains(Name))
    C = ValueClass::Event;
  else if (Config.StreamGuardClasses.contains(Name))
    C = ValueClass::StreamGuard;
  Records[RD] = C;
  return C;
}

ValueClass ApiTable::classify(const CXXRecordDecl *RD) {
  if (!RD)
    return ValueClass::None;
  auto It = Records.find(RD);
  if (It != Records.end())
    return It->second;
  ValueClass C = Builtin.classify(RD);
  if (C == ValueClass::None)
    C = recognise(*RD);
  Records[RD] = C;
  return C;
}

// Classes recognised from their code, once per class: hand-written guards
// and event wrappers. The recognisers ask the built-in rows only.
ValueClass ApiTable::recognise(const CXXRecordDecl &RD) {
  if (std::optional<unsigned> P = streamSwitcherParameter(RD, Builtin)) {
    GuardParameters[&RD] = *P;
    return ValueClass::StreamGuard;
  }
  if (std::optional<WrapperMethods> W = eventWrapperMethods(RD, Builtin)) {
    for (const auto &[M, Entry] : *W)
      Wrapped[M] = Entry;
    return ValueClass::Event;
  }
  return ValueClass::None;
}

unsigned ApiTable::guardStreamParameter(const CXXRecordDecl *RD) {
  classify(RD);
  auto It = GuardParameters.find(RD);
  return It == GuardParameters.end() ? 0 : It->second;
}

ValueClass ApiLookup::classify(QualType T) {
  if (T.isNull())
    return ValueClass::None;
  T = T.getNonReferenceType();
  // cudaStream_t and cudaEvent_t are pointers to opaque driver structs; a
  // pointer to a tensor is followed as the tensor.
  if (const auto *PT = T->getAs<PointerType>()) {
    if (const auto *Pointee = PT->getPointeeType()->getAsCXXRecordDecl();
        Pointee && classify(Pointee) == ValueClass::Tensor)
      return ValueClass::Tensor;
    if (const auto *RT = PT->getPointeeType()->getAs<RecordType>()) {
      const RecordDecl *RD = RT->getDecl();
      if (RD->getDeclContext()->getRedeclContext()->isTranslationUnit()) {
        StringRef N = RD->getName();
        if (N == "CUstream_st")
          return ValueClass::RawStream;
        if (N == "CUevent_st")
          return ValueClass::RawEvent;
      }
    }
    return ValueClass::None;
  }
  return classify(T->getAsCXXRecordDecl());
}

bool isThreadClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  StringRef N = RD->getName();
  if (N != "thread" && N != "jthread")
    return false;
  std::string Name = canonicalName(RD);
  return Name == "std::thread" || Name == "std::jthread";
}

bool spawnsThread(ApiEffect E) {
  return E == ApiEffect::SpawnThread || E == ApiEffect::ConfiguredThreadSpawn ||
         E == ApiEffect::ConfiguredExecutorLaunch;
}

const FunctionDecl *namedFunction(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  const auto *FD = DR ? dyn_cast<FunctionDecl>(DR->getDecl()) : nullptr;
  return FD && !isa<CXXMethodDecl>(FD) ? FD : nullptr;
}

const ApiEntry &BuiltinApis::lookup(const FunctionDecl *FD) {
  static const ApiEntry Nothing;
  if (!FD)
    return Nothing;
  auto It = Calls.find(FD);
  if (It == Calls.end())
    It = Calls.try_emplace(FD, compute(FD)).first;
  return It->second;
}

const ApiEntry &ApiTable::lookup(const FunctionDecl *FD) {
  // Methods of an event wrapper recognised from its code (classifying the
  // class recognises it).
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      MD && classify(MD->getParent()) == ValueClass::Event)
    if (auto It = Wrapped.find(MD->getCanonicalDecl()); It != Wrapped.end())
      return It->second;
  const ApiEntry &Row = Builtin.lookup(FD);
  if (!FD || Row.Effect != ApiEffect::None)
    return Row;
  // A project's own thread spawner, recognised from its code (once; a
  // wrapper of itself is not one).
  const FunctionDecl *Key = FD->getCanonicalDecl();
  if (!Spawners.count(Key)) {
    Spawners[Key] = false;
    bool Spawns = spawnsParameter(*FD, *this);
    Spawners[Key] = Spawns;
  }
  static const ApiEntry Spawner{ApiEffect::ConfiguredThreadSpawn};
  return Spawners.lookup(Key) ? Spawner : Row;
}

ApiEntry BuiltinApis::compute(const FunctionDecl *FD) {
  std::string Name = canonicalName(FD);
  auto Configured = [&](ApiEffect E) {
    ApiEntry A{E};
    return A;
  };
  // The user's framework APIs first: they name their own functions.
  if (Config.CurrentStreamSetters.contains(Name))
    return Configured(ApiEffect::ConfiguredSetCurrent);
  if (Config.CurrentStreamGetters.contains(Name))
    return Configured(ApiEffect::ConfiguredCurrentStream);
  if (Config.StreamSyncFunctions.contains(Name))
    return Configured(ApiEffect::ConfiguredStreamSync);
  if (Config.RecordStreamFunctions.contains(Name))
    return Configured(ApiEffect::ConfiguredRecordStream);
  if (Config.ThreadSpawnFunctions.contains(Name))
    return Configured(ApiEffect::ConfiguredThreadSpawn);
  if (Config.ExecutorLaunchFunctions.contains(Name))
    return Configured(ApiEffect::ConfiguredExecutorLaunch);
  if (Config.GraphCaptureBeginFunctions.contains(Name))
    return Configured(ApiEffect::ConfiguredCaptureBegin);
  if (Config.GraphCaptureEndFunctions.contains(Name))
    return Configured(ApiEffect::ConfiguredCaptureEnd);

  // Methods of at::Tensor (and at::TensorBase): a row, or the naming
  // conventions.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && classify(MD->getParent()) == ValueClass::Tensor)
    return entryOf(tensorMethodEffect(FD->getNameAsString(), Language::Cpp));
  if (const ApiEntry *Row = cppApi(Name))
    return *Row;
  // A method that overrides a row's (ProcessGroupNCCL::allreduce,
  // WorkNCCL::wait) is that row.
  if (MD)
    for (const CXXMethodDecl *O : MD->overridden_methods())
      if (ApiEntry E = lookup(O); E.Effect != ApiEffect::None)
        return E;
  // A member of a class template's specialisation: std::future<void>::get
  // is the row std::future::get.
  if (MD && Name.find('<') != std::string::npos)
    if (const ApiEntry *Row = cppApi(withoutTemplateArguments(Name)))
      return *Row;

  // Methods of a configured event class: record(stream) and wait(stream)
  // take the stream first, or use the current one.
  if (MD && Config.isEventClass(MD->getParent())) {
    ApiEntry OnFirst;
    OnFirst.Stream = 0;
    if (ApiConfig::hasMethod(Config.EventRecordMethods, FD))
      return OnFirst.Effect = ApiEffect::ConfiguredEventRecord, OnFirst;
    if (ApiConfig::hasMethod(Config.EventWaitMethods, FD))
      return OnFirst.Effect = ApiEffect::ConfiguredEventWait, OnFirst;
    if (ApiConfig::hasMethod(Config.EventSyncMethods, FD))
      return Configured(ApiEffect::ConfiguredEventSync);
    return Configured(ApiEffect::ConfiguredEventOther);
  }

  // Free functions of at:: and torch:: (torch:: re-exports at::).
  if (isInTopNamespace(FD, "at") || isInTopNamespace(FD, "torch")) {
    if (!FD->getDeclName().isIdentifier())
      return ApiEntry{ApiEffect::AtenOp}; // operators: at::operator+
    return entryOf(torchFunctionEffect(FD->getName(), Language::Cpp));
  }
  // A project's getter named as PyTorch's, whose body may be in another
  // unit (DGL's runtime::getCurrentCUDAStream()): a free function of that
  // name that returns a stream hands out PyTorch's current stream.
  if (!MD && FD->getIdentifier() && FD->getName() == "getCurrentCUDAStream" &&
      classify(FD->getReturnType()) == ValueClass::RawStream)
    return ApiEntry{ApiEffect::CurrentStream};
  return ApiEntry{};
}

} // namespace streamsafe
