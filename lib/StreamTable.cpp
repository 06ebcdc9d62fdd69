//===--- StreamTable.cpp - Streams as symbols -----------------------------===//

#include "lib/StreamTable.h"
#include "clang/AST/Decl.h"

namespace streamsafe {

StreamTable::StreamTable() {
  Syms.resize(3);
  Syms[Default].Kind = StreamKind::Default;
  Syms[EntryCurrent].Kind = StreamKind::EntryCurrent;
}

StreamId StreamTable::get(StreamKind Kind, const void *Key) {
  if (Kind == StreamKind::Unknown)
    return Unknown;
  if (Kind == StreamKind::Default)
    return Default;
  if (Kind == StreamKind::EntryCurrent)
    return EntryCurrent;
  auto It = ByKey.find(Key);
  if (It != ByKey.end())
    return It->second;
  if (Syms.size() >= MaxStreams)
    return Unknown;
  Syms.push_back({Kind, Key, nullptr});
  StreamId Id = static_cast<StreamId>(Syms.size() - 1);
  ByKey[Key] = Id;
  return Id;
}

void StreamTable::nameBy(StreamId Id, const clang::NamedDecl *Var) {
  if (Id > EntryCurrent && !Syms[Id].Var)
    Syms[Id].Var = Var;
}

bool StreamTable::knownDistinct(StreamId A, StreamId B) const {
  if (A == B || A == Unknown || B == Unknown)
    return false;
  // A stream fetched from the pool in this function differs from every other
  // stream we can name (the pool recycles streams, but code must not rely on
  // that). Anything else may alias: a parameter may be the current stream,
  // the caller's current stream may be the default stream.
  // An executor's worker thread binds a stream of its own (from the pool).
  auto Fresh = [&](StreamId S) {
    return Syms[S].Kind == StreamKind::Pool ||
           Syms[S].Kind == StreamKind::Executor;
  };
  return Fresh(A) || Fresh(B);
}

std::string StreamTable::describe(StreamId Id) const {
  const StreamSymbol &S = Syms[Id];
  std::string Name = S.Var ? "'" + S.Var->getNameAsString() + "'" : "";
  switch (S.Kind) {
  case StreamKind::Unknown:
    return "an unknown stream";
  case StreamKind::Default:
    return "the default stream";
  case StreamKind::EntryCurrent:
    return "the caller's current stream";
  case StreamKind::Pool:
    return Name.empty() ? "a pool stream" : "pool stream " + Name;
  case StreamKind::Executor:
    return Name.empty() ? "an executor's stream"
                        : "the stream of executor " + Name;
  case StreamKind::Parameter:
  case StreamKind::Other:
    return Name.empty() ? "another stream" : "stream " + Name;
  }
  return "a stream";
}

} // namespace streamsafe
