//===--- HostOrder.cpp - Host-side ordering between Python threads --------===//
//
// As in C++ (lib/frontend/LowerHostOrder.cpp): a thread's host code is
// ordered after another's by a wait on what the other signalled, its end
// (`t.join()`, `fut.result()`), a threading.Event, a Queue. The object is
// the channel: a name or `self.x`. The front end does not know the
// receiver's class, so a method is taken by its name (`wait`, `join`,
// `put`) from the model's rows; a name that is not a channel of a thread
// followed here only releases what any wait would (precision first).
//
//===----------------------------------------------------------------------===//

#include "lib/model/HostOrder.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/Scope.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

VarId Builder::channelVar(TSNode Object) {
  Object = unparen(Object);
  if (!is(Object, "identifier") && !is(Object, "attribute"))
    return NoVar;
  std::string Text = F.text(Object).str();
  const Scope *Owner =
      is(Object, "identifier") ? St->S->owner(F.text(Object)) : nullptr;
  return Threads.channel(
      Owner, Text, [&] { return newSyntheticVar(Text, VarClass::Other); });
}

void Builder::hostOrder(ApiEffect E, VarId Channel, TSNode At) {
  SiteId S = site(SiteKind::Other, At);
  for (Fact::Op &Op : hostOrderFacts(E, Channel))
    emit(S, std::move(Op));
}

bool Builder::hostOnlyChannel(TSNode Object) {
  Object = unparen(Object);
  if (is(Object, "identifier")) {
    const Scope *Owner = St->S->owner(F.text(Object));
    if (!Owner)
      return false;
    auto B = Owner->Bindings.find(F.text(Object));
    if (B == Owner->Bindings.end() || B->second.empty())
      return false;
    return llvm::all_of(B->second, [&](TSNode V) {
      V = unparen(V);
      return is(V, "call") &&
             isHostOnlyChannelClass(I.qualify(field(V, "function")));
    });
  }
  // self.x of a method: what the class gives x.
  TSNode Self = unparen(field(Object, "object"));
  const Scope &S = *St->S;
  TSNode Class = classOf(S.Node);
  return is(Object, "attribute") && is(Self, "identifier") &&
         S.K == Scope::Def && !S.Params.empty() &&
         F.text(Self) == F.text(S.Params.front()) && !ts_node_is_null(Class) &&
         X->hostChannelAttribute(Class, F.text(field(Object, "attribute")));
}

bool Builder::hostOrderCall(TSNode Call, llvm::StringRef Qualified) {
  if (!Qualified.empty()) {
    ApiEffect E = hostOrderFunction(Qualified);
    if (E == ApiEffect::None)
      return false;
    hostOrder(E, NoVar, Call);
    return true;
  }
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "attribute"))
    return false;
  ApiEffect E = hostOrderMethod(F.text(field(Fn, "attribute")));
  // ev.wait(s), s.synchronize(): a stream's or an event's own methods.
  if (E == ApiEffect::None ||
      classOfExpr(field(Fn, "object"), *St->S, F, I) != VarClass::Other)
    return false;
  hostOrder(E, channelVar(field(Fn, "object")), Call);
  return true;
}

} // namespace streamsafe::py
