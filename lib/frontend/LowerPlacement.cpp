//===--- LowerPlacement.cpp - Where a new tensor's memory lives ----------===//
//
// The Clang reader of lib/lower/Placement.h's rule: what a factory's
// options say of the device (`.device(at::kCPU)`, `at::kCPU`, `"cpu"`,
// `at::kCUDA`, `x.options()`, options the reader cannot evaluate) and of
// pinned memory (`.pinned_memory(flag)`, also through std::optional<bool>).
// A device with a constant index (`at::Device(at::kCUDA, 1)`, `"cuda:1"`,
// `.device_index(1)`) says which device: the result is allocated on that
// device's current stream.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/lower/Placement.h"
#include "lib/model/Arguments.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace streamsafe {

namespace {

using Statement = PlacementStatement;
using Device = PlacementStatement::Device;
using Pin = PlacementStatement::Pin;

Statement deviceStatement(Device D) {
  Statement S;
  S.D = D;
  return S;
}

StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
}

// A bool literal, also as std::optional<bool> (pinned_memory's parameter).
std::optional<bool> literalBool(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreImplicit();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
    E = C->getArg(0)->IgnoreImplicit();
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return B->getValue();
  return std::nullopt;
}

// A constant device index: a literal, a constant expression.
std::optional<int8_t> constantIndex(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  int64_t V = R.Val.getInt().getExtValue();
  if (V < 0 || V > 127)
    return std::nullopt;
  return int8_t(V);
}

// "cuda:1": the index after the colon.
std::optional<int8_t> indexInString(StringRef S) {
  if (!S.consume_front("cuda:"))
    return std::nullopt;
  unsigned V = 0;
  if (S.getAsInteger(10, V) || V > 127)
    return std::nullopt;
  return int8_t(V);
}

class OptionsReader {
public:
  OptionsReader(ApiTable &Table, const ASTContext &Ctx)
      : Table(Table), Ctx(Ctx) {}

  /// The index of the last CUDA device with a constant index the options
  /// named (valid when the answer is Device::Cuda).
  std::optional<int8_t> Index;

  /// What a device expression (at::kCPU, "cuda:0", at::Device(...),
  /// x.device()) says.
  Device device(const Expr *E, int Depth = 0) {
    if (!E || Depth > 8)
      return Device::Unreadable;
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      StringRef N = nameOf(DR->getDecl());
      if (N == "kCPU" || N == "CPU")
        return Device::Host;
      if (N == "kCUDA" || N == "CUDA")
        return Device::Cuda;
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->getInit() &&
          (V->getType().isConstQualified() ||
           (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && Reassigned &&
            !Reassigned(V))))
        return device(V->getInit(), Depth + 1);
      return Device::Unreadable;
    }
    if (const auto *SL = dyn_cast<StringLiteral>(E)) {
      if (SL->getCharByteWidth() != 1)
        return Device::Unreadable;
      if (SL->getString().starts_with("cpu"))
        return Device::Host;
      if (!SL->getString().starts_with("cuda"))
        return Device::Unreadable;
      Index = indexInString(SL->getString());
      return Device::Cuda;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (!CE->getNumArgs())
        return Device::Unreadable;
      Device W = device(CE->getArg(0), Depth + 1);
      // Device(kCUDA, 1): the second argument is the index.
      if (W == Device::Cuda && CE->getNumArgs() > 1 &&
          !isa<CXXDefaultArgExpr>(CE->getArg(1)))
        Index = constantIndex(CE->getArg(1), Ctx);
      return W;
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return device(MT->getSubExpr(), Depth + 1);
    return Device::Unreadable; // x.device(), a parameter: not known
  }

  /// What a TensorOptions expression says.
  Statement options(const Expr *E, int Depth = 0) {
    if (!E || Depth > 16)
      return deviceStatement(Device::Unreadable);
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return options(MT->getSubExpr(), Depth + 1);
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      return options(BT->getSubExpr(), Depth + 1);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      StringRef N = nameOf(MC->getMethodDecl());
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (Table.classify(Obj->getType()) == ValueClass::Tensor)
        return deviceStatement(N == "options" ? Device::Cuda
                                              : Device::Unreadable);
      const Expr *Arg = MC->getNumArgs() ? MC->getArg(0) : nullptr;
      if (arguments::isPinOption(N)) {
        Statement S = options(Obj, Depth + 1);
        std::optional<bool> Flag = literalBool(Arg);
        S.P = !Flag ? Pin::Unreadable : *Flag ? Pin::True : Pin::False;
        return S;
      }
      if (N == arguments::Device) {
        Statement S = options(Obj, Depth + 1);
        S.D = device(Arg, Depth + 1); // the last device set wins
        return S;
      }
      if (N == "device_index") {
        Statement S = options(Obj, Depth + 1);
        Index = constantIndex(Arg, Ctx);
        S.D = Device::Cuda;
        return S;
      }
      // dtype(), layout(), requires_grad(), memory_format(): no device.
      return options(Obj, Depth + 1);
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      // TensorOptions(), TensorOptions(kCPU), TensorOptions(kFloat), a copy.
      Statement S;
      for (const Expr *Arg : CE->arguments())
        S.add(argument(Arg, Depth + 1));
      return S;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      // at::device(kCPU), at::dtype(kFloat), at::requires_grad().
      StringRef N = nameOf(CE->getDirectCallee());
      if (N == arguments::Device)
        return deviceStatement(CE->getNumArgs()
                                   ? device(CE->getArg(0), Depth + 1)
                                   : Device::Unreadable);
      if (N == "dtype" || N == "layout" || N == "requires_grad" ||
          N == "memory_format")
        return Statement();
      return deviceStatement(Device::Unreadable); // a helper's options
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      // A local never assigned again holds what it was initialised with.
      if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
          (V->getType().isConstQualified() || !Reassigned(V)))
        return options(V->getInit(), Depth + 1);
      return deviceStatement(device(E, Depth + 1));
    }
    return deviceStatement(Device::Unreadable);
  }

  /// One argument of a factory or a to(): options, a device, a dtype.
  Statement argument(const Expr *Arg, int Depth = 0) {
    if (!Arg || isa<CXXDefaultArgExpr>(Arg))
      return Statement();
    QualType T = Arg->getType().getNonReferenceType();
    if (T->isIntegralOrEnumerationType() || T->isFloatingType() ||
        T->isBooleanType()) {
      // at::kCPU / at::kCUDA say a device; a dtype constant or a number
      // says none.
      Device D = isa<DeclRefExpr>(Arg->IgnoreImplicit()) ? device(Arg, Depth)
                                                         : Device::Unreadable;
      return deviceStatement(D == Device::Unreadable ? Device::Unstated : D);
    }
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    StringRef N = nameOf(RD);
    if (N == "TensorOptions" || N == "optional")
      return options(Arg, Depth);
    if (N == "Device")
      return deviceStatement(device(Arg, Depth));
    // sizes, scalars, generators, memory formats, names: no device.
    return Statement();
  }

  std::function<bool(const VarDecl *)> Reassigned;

private:
  ApiTable &Table;
  const ASTContext &Ctx;
};

} // namespace

std::optional<int8_t> Lowering::deviceIndexOf(const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return std::nullopt;
  if (E->getType()->isIntegralOrEnumerationType() &&
      !E->getType()->isEnumeralType())
    return constantIndex(E, Ctx);
  OptionsReader P(Table, Ctx);
  P.Reassigned = [this](const VarDecl *V) { return rebound(V); };
  if (P.device(E) != Device::Cuda)
    return std::nullopt;
  return P.Index;
}

Placement Lowering::placementOf(const CallExpr *CE, bool Like, int8_t *Device) {
  OptionsReader P(Table, Ctx);
  P.Reassigned = [this](const VarDecl *V) { return rebound(V); };
  Statement S;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *Arg = CE->getArg(I);
    // The unpacked overloads: empty(size, dtype, layout, device,
    // pin_memory, ...).
    const FunctionDecl *FD = CE->getDirectCallee();
    StringRef Param = FD && I < FD->getNumParams() ? nameOf(FD->getParamDecl(I))
                                                   : StringRef();
    if (Param == arguments::PinMemory && !isa<CXXDefaultArgExpr>(Arg)) {
      std::optional<bool> Flag = literalBool(Arg);
      Statement Pinned;
      Pinned.P = !Flag ? Pin::Unreadable : *Flag ? Pin::True : Pin::False;
      S.add(Pinned);
      continue;
    }
    if (Table.classify(Arg->getType()) == ValueClass::Tensor)
      continue; // the source of a _like factory, or of to(other)
    S.add(P.argument(Arg));
  }
  Placement Place = streamsafe::placementOf(S, Like); // lib/lower
  if (Place == Placement::Device && S.D == Statement::Device::Cuda && Device &&
      P.Index)
    *Device = *P.Index;
  return Place;
}

} // namespace streamsafe
