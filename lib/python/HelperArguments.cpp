//===--- HelperArguments.cpp - A helper's parameters bound to arguments ---===//
//
// A helper run in place (Helpers.cpp) gets the caller's values: each
// parameter is matched to its argument as Python binds them (positions,
// keywords, defaults; a method's first parameter is its object), and bound
// to what the argument holds (a tensor, a stream, the caller's event).
//
//===----------------------------------------------------------------------===//

#include "lib/model/Arguments.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

ArgumentMatch Builder::matchArguments(TSNode Def, const Args &A, bool Method) {
  ArgumentMatch M;
  std::vector<std::string> Params = paramNames(Def, F);
  unsigned First = Method ? 1 : 0;
  // Which argument each parameter gets, and what it holds (syntactically:
  // the arguments are lowered once, after the body is chosen).
  for (size_t K = 0; K < A.Positional.size(); ++K) {
    TSNode P = A.Positional[K];
    if (First + K < Params.size() && !is(P, "list_splat") &&
        !is(P, "dictionary_splat"))
      M.Bound.push_back({Params[First + K], P});
    else
      M.Extra.push_back(P);
  }
  for (const auto &[K, P] : A.Keywords) {
    if (llvm::is_contained(Params, K.str()))
      M.Bound.push_back({K.str(), P});
    else
      M.Extra.push_back(P);
  }
  const llvm::StringMap<VarClass> *ByUse = nullptr;
  for (const auto &[Name, P] : M.Bound) {
    if (is(unparen(P), "true") || is(unparen(P), "false"))
      M.Constants[Name] = is(unparen(P), "true");
    VarClass C = classOfExpr(P, *St->S, F, I);
    // A comprehension's variable, standing for one element followed.
    if (const Value *E = is(unparen(P), "identifier")
                             ? ListVars.substituted(F.text(unparen(P)).str())
                             : nullptr;
        C == VarClass::Other && E && E->Class == VarClass::Tensor)
      C = VarClass::Tensor;
    // The analysed def's parameter that it does not follow (a dict of the
    // caller's tensors), handed to a callee that uses it as a tensor: the
    // callee works on the caller's tensors (Megatron's recursive
    // clone_tensors_in_struct).
    if (C == VarClass::Other) {
      if (holdsCallerElements(P)) {
        if (!ByUse) {
          auto [It, New] = Memo.DefsByUse.try_emplace(Def.id);
          if (New)
            It->second = classesByUse(Def, F, I);
          ByUse = &It->second;
        }
        if (ByUse->lookup(Name) == VarClass::Tensor) {
          C = VarClass::Tensor;
          M.CallerData[Name] = P;
        }
      }
    }
    // A field of the caller's object the analysed def uses as a tensor
    // (Scope::ParamFields): the callee gets that tensor.
    if (C == VarClass::Other && St->S == Root && St->SiteScope == 0 &&
        is(unparen(P), "attribute") &&
        Root->ParamFields.contains(useKey(unparen(P), F)))
      C = VarClass::Tensor;
    M.Classes[Name] = C;
    M.GivenStreams |= C == VarClass::Stream || C == VarClass::Event;
    if (C == VarClass::Event && is(unparen(P), "identifier"))
      if (VarId V = varOf(F.text(unparen(P))); V != NoVar)
        M.Events[Name] = V;
  }
  return M;
}

VarId Builder::paramVar(const Scope *S, const std::string &Name) {
  auto [It, New] = Vars.try_emplace({S, Name}, NoVar);
  VarClass C = S->Locals.lookup(Name);
  if (New && C != VarClass::Other) {
    Variable V;
    V.Name = Name;
    V.Class = C;
    IR->Vars.push_back(std::move(V));
    It->second = IR->Vars.size() - 1;
  }
  return It->second;
}

llvm::SmallVector<VarId, 4> Builder::bindArguments(const ArgumentMatch &M,
                                                   const Scope *Callee,
                                                   SiteId At, bool Escapes) {
  llvm::SmallVector<VarId, 4> Unbind;
  for (const auto &[Name, P] : M.Bound) {
    Value V = expr(P);
    if (auto Given = M.CallerData.find(Name); Given != M.CallerData.end())
      if (VarId Elements = callerElements(Given->second); Elements != NoVar) {
        V.Class = VarClass::Tensor;
        V.Tensor = TensorRef::var(Elements);
      }
    VarId Param = paramVar(Callee, Name);
    if (Escapes || Param == NoVar || IR->var(Param).Class != V.Class)
      escape(V, P); // not followed there, or kept beyond this function
    if (Param == NoVar || IR->var(Param).Class != V.Class)
      continue;
    switch (V.Class) {
    case VarClass::Tensor:
      emit(At, fact::BindTensor{Param, V.Tensor});
      Unbind.push_back(Param);
      break;
    case VarClass::Stream:
      emit(At, fact::BindStream{Param, V.Stream});
      break;
    case VarClass::Event:
      if (V.Event != Param)
        emit(At, fact::BindEvent{Param, V.FreshEvent});
      break;
    default:
      break;
    }
  }
  for (TSNode P : M.Extra)
    escape(expr(P), P);
  return Unbind;
}

} // namespace streamsafe::py
