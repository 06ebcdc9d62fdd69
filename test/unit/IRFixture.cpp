//===--- IRFixture.cpp - Hand-built fact IR for solver tests --------------===//

#include "IRFixture.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <iterator>
#include <type_traits>

namespace streamsafe {
namespace test {

namespace {

// The kind of site a front end gives each fact.
SiteKind siteKindOf(const Fact::Op &What) {
  return std::visit(
      [](const auto &X) {
        using T = std::decay_t<decltype(X)>;
        if constexpr (std::is_same_v<T, fact::SetCurrent>)
          return SiteKind::SetCurrent;
        else if constexpr (std::is_same_v<T, fact::GuardEnter>)
          return SiteKind::GuardEnter;
        else if constexpr (std::is_same_v<T, fact::GuardExit>)
          return SiteKind::GuardExit;
        else if constexpr (std::is_same_v<T, fact::Access> ||
                           std::is_same_v<T, fact::HostAccess>)
          return SiteKind::Access;
        else if constexpr (std::is_same_v<T, fact::Allocate>)
          return SiteKind::Allocation;
        else if constexpr (std::is_same_v<T, fact::BindEvent>)
          return SiteKind::EventDecl;
        else if constexpr (std::is_same_v<T, fact::EventRecord>)
          return SiteKind::EventRecord;
        else if constexpr (std::is_same_v<T, fact::EventWait>)
          return SiteKind::EventWait;
        else if constexpr (std::is_same_v<T, fact::Unbind>)
          return SiteKind::LifetimeEnd;
        else if constexpr (std::is_same_v<T, fact::Spawn>)
          return X.InPlace ? SiteKind::Other : SiteKind::ThreadStart;
        else if constexpr (std::is_same_v<T, fact::CaptureBegin>)
          return SiteKind::CaptureBegin;
        else if constexpr (std::is_same_v<T, fact::CaptureEnd>)
          return SiteKind::CaptureEnd;
        else
          return SiteKind::Other;
      },
      What);
}

const char *kindName(FindingKind K) {
  switch (K) {
  case FindingKind::UnsynchronizedAccess:
    return "UnsynchronizedAccess";
  case FindingKind::MissingRecordStream:
    return "MissingRecordStream";
  case FindingKind::ThreadCurrentStream:
    return "ThreadCurrentStream";
  case FindingKind::UnrestoredCurrentStream:
    return "UnrestoredCurrentStream";
  case FindingKind::UnrecordedEventWait:
    return "UnrecordedEventWait";
  case FindingKind::HostReadBeforeSync:
    return "HostReadBeforeSync";
  case FindingKind::GraphCapture:
    return "GraphCapture";
  case FindingKind::DefaultStreamLaunch:
    return "DefaultStreamLaunch";
  }
  return "?";
}

const char *modeName(AccessMode M) {
  switch (M) {
  case AccessMode::Read:
    return "read";
  case AccessMode::Write:
    return "write";
  case AccessMode::Allocate:
    return "allocate";
  case AccessMode::EntryReady:
    return "entry-ready";
  case AccessMode::Fill:
    return "fill";
  }
  return "?";
}

// The rule a graph-capture finding breaks.
const char *problemName(const finding::capture::Unjoined &) {
  return "unjoined";
}
const char *problemName(const finding::capture::HostSync &) {
  return "host-sync";
}
const char *problemName(const finding::capture::ForbiddenSync &) {
  return "forbidden-sync";
}
const char *problemName(const finding::capture::CapturedEvent &) {
  return "captured-event";
}
const char *problemName(const finding::capture::Restricted &) {
  return "restricted";
}
const char *problemName(const finding::capture::ForbiddenQuery &) {
  return "forbidden-query";
}
const char *problemName(const finding::capture::OutsideEventWait &) {
  return "outside-event-wait";
}
const char *problemName(const finding::capture::Uncaptured &) {
  return "uncaptured";
}
const char *problemName(const finding::capture::LegacyStream &) {
  return "legacy-stream";
}
const char *problemName(const finding::capture::DefaultStreamCapture &) {
  return "default-stream-capture";
}

const char *captureModeName(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "global";
  case CaptureMode::ThreadLocal:
    return "thread-local";
  case CaptureMode::Relaxed:
    return "relaxed";
  case CaptureMode::Unknown:
    return "unknown";
  }
  return "?";
}

// The kinds whose access mode is part of what they say.
bool modeMatters(FindingKind K) {
  return K == FindingKind::UnsynchronizedAccess ||
         K == FindingKind::MissingRecordStream ||
         K == FindingKind::HostReadBeforeSync;
}

} // namespace

//===-- BlockRef ----------------------------------------------------------===//

SiteId BlockRef::add(unsigned Line, Fact::Op What) {
  SiteKind Kind = siteKindOf(What);
  return add(Line, Kind, std::move(What));
}

SiteId BlockRef::add(unsigned Line, SiteKind Kind, Fact::Op What) {
  SiteId S = F->site(Kind, Line);
  Fact Fa;
  Fa.Site = S;
  Fa.What = std::move(What);
  F->at(*this).Facts.push_back(std::move(Fa));
  return S;
}

SiteId BlockRef::bindStream(unsigned Line, VarId V, StreamRef S) {
  return add(Line, fact::BindStream{V, S});
}

SiteId BlockRef::setCurrent(unsigned Line, StreamRef S) {
  return add(Line, fact::SetCurrent{S});
}

SiteId BlockRef::guardEnter(unsigned Line, VarId Guard, StreamRef S) {
  fact::GuardEnter G;
  G.Guard = Guard;
  G.Stream = S;
  return add(Line, G);
}

SiteId BlockRef::guardExit(unsigned Line, VarId Guard) {
  return add(Line, fact::GuardExit{Guard});
}

SiteId BlockRef::allocate(unsigned Line, VarId V, StreamRef S,
                          fact::Allocate Options) {
  Options.Result = F->object();
  Options.Stream = S;
  SiteId At = add(Line, Options);
  F->at(*this).Facts.push_back(
      {At, fact::BindTensor{V, TensorRef::result(Options.Result)}});
  return At;
}

SiteId BlockRef::read(unsigned Line, VarId T, StreamRef S) {
  fact::Access A;
  A.Tensor = TensorRef::var(T);
  A.Stream = S;
  return add(Line, A);
}

SiteId BlockRef::write(unsigned Line, VarId T, StreamRef S) {
  fact::Access A;
  A.Write = true;
  A.Tensor = TensorRef::var(T);
  A.Stream = S;
  return add(Line, A);
}

SiteId BlockRef::copyInto(unsigned Line, VarId T, StreamRef S, bool Async) {
  fact::Access A;
  A.Write = true;
  A.Tensor = TensorRef::var(T);
  A.Stream = S;
  A.Async = Async;
  A.Copy = true;
  return add(Line, A);
}

SiteId BlockRef::escape(unsigned Line, VarId T) {
  return add(Line, fact::EscapeTensor{TensorRef::var(T)});
}

SiteId BlockRef::unbind(unsigned Line, VarId V) {
  return add(Line, fact::Unbind{V});
}

SiteId BlockRef::newEvent(unsigned Line, VarId E) {
  return add(Line, fact::BindEvent{E, /*Fresh=*/true});
}

SiteId BlockRef::record(unsigned Line, VarId E, StreamRef S) {
  return add(Line, fact::EventRecord{E, S});
}

SiteId BlockRef::wait(unsigned Line, VarId E, StreamRef S) {
  fact::EventWait W;
  W.Event = E;
  W.Stream = S;
  return add(Line, W);
}

SiteId BlockRef::streamSync(unsigned Line, StreamRef S) {
  fact::StreamSync Y;
  Y.Stream = S;
  return add(Line, Y);
}

SiteId BlockRef::recordStream(unsigned Line, VarId T, StreamRef S) {
  return add(Line, fact::RecordStream{TensorRef::var(T), S});
}

SiteId BlockRef::hostRead(unsigned Line, VarId T) {
  return add(Line, fact::HostAccess{/*Write=*/false, TensorRef::var(T)});
}

SiteId BlockRef::currentQuery(unsigned Line) {
  return add(Line, fact::CurrentQuery{});
}

SiteId BlockRef::spawn(unsigned Line, BodyId B, bool InPlace) {
  fact::Spawn S;
  S.Body = B;
  S.InPlace = InPlace;
  return add(Line, S);
}

SiteId BlockRef::captureBegin(unsigned Line, StreamRef S, CaptureMode Mode) {
  return add(Line, fact::CaptureBegin{S, Mode});
}

SiteId BlockRef::captureEnd(unsigned Line, StreamRef S) {
  return add(Line, fact::CaptureEnd{S});
}

//===-- IRFixture ---------------------------------------------------------===//

IRFixture::IRFixture(std::string Name) {
  IR.Name = std::move(Name);
  IR.EntrySite = site(SiteKind::FunctionEntry, 1);
  callable();
}

VarId IRFixture::var(const std::string &Name, VarClass Class) {
  Variable V;
  V.Name = Name;
  V.Class = Class;
  IR.Vars.push_back(V);
  return static_cast<VarId>(IR.Vars.size() - 1);
}

VarId IRFixture::param(const std::string &Name, VarClass Class) {
  VarId V = var(Name, Class);
  IR.Params.push_back(V);
  IR.ParamSites.push_back(site(SiteKind::ParamReady, 1));
  return V;
}

BodyId IRFixture::callable() {
  Body B;
  B.Blocks.resize(2);
  B.Entry = 0;
  B.Exit = 1;
  IR.Bodies.push_back(std::move(B));
  return static_cast<BodyId>(IR.Bodies.size() - 1);
}

BlockRef IRFixture::entry(BodyId B) {
  return BlockRef(*this, B, IR.Bodies[B].Entry);
}

BlockRef IRFixture::block(BodyId B) {
  IR.Bodies[B].Blocks.emplace_back();
  return BlockRef(*this, B,
                  static_cast<unsigned>(IR.Bodies[B].Blocks.size() - 1));
}

void IRFixture::edge(BlockRef From, BlockRef To, Assumption If) {
  Body &B = IR.Bodies[From.Body];
  B.Blocks[From.Id].Succs.push_back(To.Id);
  B.Blocks[From.Id].SuccConds.push_back(If.Var == NoVar ? EdgeCondition()
                                                        : EdgeCondition{If});
  B.Blocks[To.Id].Preds.push_back(From.Id);
}

SiteId IRFixture::exit(BlockRef From, unsigned Line) {
  SiteId At = site(SiteKind::FunctionExit, Line);
  at(From).ExitSite = At;
  edge(From, BlockRef(*this, From.Body, IR.Bodies[From.Body].Exit));
  return At;
}

SiteId IRFixture::site(SiteKind Kind, unsigned Line) {
  Site S;
  S.Kind = Kind;
  S.Line = Line;
  // Source order: by line, then in the order the sites were made.
  S.Order = uint64_t(Line) * 1000 + ++SitesMade;
  return IR.Sites.add(S);
}

SolverResult IRFixture::solve(const SolverLimits &Limits) const {
  return streamsafe::solve(IR, Limits);
}

std::vector<std::string> IRFixture::findings() const {
  SolverResult R = solve();
  if (R.State != SolverResult::Analysed)
    return {"budget exceeded"};
  std::vector<std::string> Out;
  for (const Finding &F : R.Findings)
    Out.push_back(describe(F));
  return Out;
}

std::string IRFixture::streamName(const StreamDesc &D) const {
  static const char *const Kinds[] = {
      "unknown",        "default",    "entry-current", "pool",      "created",
      "parameter",      "executor",   "member",        "attribute", "global",
      "side-parameter", "side-local", "collective",    "other"};
  static_assert(std::size(Kinds) == size_t(StreamKind::Other) + 1,
                "one name per stream kind");
  std::string S = Kinds[static_cast<int>(D.Kind)];
  if (D.Named != NoVar)
    S += " '" + IR.var(D.Named).Name + "'";
  if (D.Device >= 0)
    S += " device " + std::to_string(D.Device);
  return S;
}

std::string IRFixture::info(FindingKind K, const AccessInfo &A) const {
  std::vector<std::string> Parts;
  std::string Where =
      A.Site == NoSite ? "" : "@" + std::to_string(line(A.Site));
  if (modeMatters(K) || A.Mode != AccessMode::Read)
    Where = modeName(A.Mode) + Where;
  if (!Where.empty())
    Parts.push_back(Where);
  const StreamDesc None;
  if (A.Stream.Kind != None.Kind || A.Stream.Named != None.Named ||
      A.Stream.Device != None.Device)
    Parts.push_back(streamName(A.Stream));
  if (A.StreamSetAt != NoSite)
    Parts.push_back("set@" + std::to_string(line(A.StreamSetAt)));
  if (A.OnCurrentStream)
    Parts.push_back("current");
  if (Parts.empty())
    return "";
  std::string S = "{";
  for (const std::string &P : Parts)
    S += (S.size() > 1 ? " " : "") + P;
  return S + "}";
}

namespace {

// What describe() writes, slot by slot: each kind's fields go to the slot
// that names their role (access: the finding's own site; prior: the site it
// pairs with; related: the other site it names).
struct Slots {
  VarId Tensor = NoVar;
  VarId Storage = NoVar;
  AccessInfo Access;
  AccessInfo Prior;
  SiteId FreedAt = NoSite;
  SiteId Related = NoSite;
  bool Maybe = false;
  bool Query = false;
  bool SingleOtherStream = false;
  bool Left = false;             ///< left in flight for the caller
  const char *Capture = nullptr; ///< the capture rule broken
  SiteId CaptureBegin = NoSite;
  CaptureMode Mode = CaptureMode::Global;
};

// The slots of a graph-capture finding's rule.
void fill(Slots &S, const finding::capture::Unjoined &P) {
  S.Access.Site = P.End;
  S.Access.Stream = P.Forked;
  S.Prior.Site = P.ForkedAt;
  S.Related = P.LastWork;
}
void fill(Slots &S, const finding::capture::HostSync &P) {
  S.Access.Site = P.Call;
  if (P.Waited)
    S.Access.Stream = *P.Waited;
}
void fill(Slots &S, const finding::capture::ForbiddenSync &P) {
  S.Access.Site = P.Call;
  S.Access.Stream = P.Waited;
}
void fill(Slots &S, const finding::capture::CapturedEvent &P) {
  S.Access.Site = P.Call;
  S.Tensor = P.Event;
  S.Related = P.RecordedAt;
}
void fill(Slots &S, const finding::capture::Restricted &P) {
  S.Access.Site = P.Call;
  if (P.Queried)
    S.Access.Stream = *P.Queried;
}
void fill(Slots &S, const finding::capture::ForbiddenQuery &P) {
  S.Access.Site = P.Call;
  if (P.Stream)
    S.Access.Stream = *P.Stream;
  S.Tensor = P.Event;
  S.Query = !P.HostWait;
}
void fill(Slots &S, const finding::capture::OutsideEventWait &P) {
  S.Access.Site = P.Call;
  S.Access.Stream = P.Waiter;
  S.Tensor = P.Event;
  S.Related = P.RecordedAt;
}
void fill(Slots &S, const finding::capture::Uncaptured &P) {
  S.Access = P.Work;
}
void fill(Slots &S, const finding::capture::LegacyStream &P) {
  S.Access = P.Work;
}
void fill(Slots &S, const finding::capture::DefaultStreamCapture &P) {
  S.Access = P.Begin;
}

Slots slotsOf(const Finding &F) {
  Slots S;
  if (const auto *X = F.as<finding::UnsynchronizedAccess>()) {
    S.Tensor = X->Tensor;
    S.Storage = X->Storage;
    S.Access = X->Access;
    S.Prior = X->Prior;
    S.Left = X->LeftForCaller;
  } else if (const auto *X = F.as<finding::MissingRecordStream>()) {
    S.Tensor = X->Tensor;
    S.Access = X->LastForeignUse;
    S.Prior = X->Allocation;
    S.FreedAt = X->FreedAt;
    S.SingleOtherStream = X->SingleOtherStream;
  } else if (const auto *X = F.as<finding::ThreadCurrentStream>()) {
    S.Access.Site = X->Work;
    S.Query = X->Query;
    S.Prior.Stream = X->SpawnerStream;
    S.Prior.StreamSetAt = X->SpawnerSetAt;
    S.Related = X->ThreadStart;
  } else if (const auto *X = F.as<finding::UnrestoredCurrentStream>()) {
    S.Access.Site = X->SetAt;
    S.Related = X->Exit;
  } else if (const auto *X = F.as<finding::UnrecordedEventWait>()) {
    S.Tensor = X->Event;
    S.Access.Site = X->Wait;
    S.Prior.Site = X->SomePathsRecord;
    S.Related = X->Declared;
    S.Maybe = X->RecordedOnSomePaths;
  } else if (const auto *X = F.as<finding::HostReadBeforeSync>()) {
    S.Tensor = X->Tensor;
    S.Access.Site = X->HostAccess;
    S.Access.Mode = X->Write ? AccessMode::Write : AccessMode::Read;
    S.Prior = X->Copy;
  } else if (const auto *X = F.as<finding::GraphCapture>()) {
    // The capturing stream is the prior stream of every rule.
    S.Prior.Stream = X->Capture.Stream;
    S.CaptureBegin = X->Capture.Begin;
    S.Mode = X->Capture.Mode;
    std::visit(
        [&](const auto &P) {
          S.Capture = problemName(P);
          fill(S, P);
        },
        X->Problem);
  }
  return S;
}

} // namespace

std::string IRFixture::describe(const Finding &F) const {
  const Slots D = slotsOf(F);
  std::string S = kindName(F.kind());
  auto Add = [&](const std::string &Part) { S += " " + Part; };
  auto At = [&](const char *What, SiteId Site) {
    if (Site != NoSite)
      Add(What + ("@" + std::to_string(line(Site))));
  };
  if (D.Tensor != NoVar)
    Add("tensor=" + IR.var(D.Tensor).Name);
  if (D.Storage != NoVar)
    Add("storage=" + IR.var(D.Storage).Name);
  if (std::string A = info(F.kind(), D.Access); !A.empty())
    Add("access=" + A);
  if (std::string P = info(F.kind(), D.Prior); !P.empty())
    Add("prior=" + P);
  At("freed", D.FreedAt);
  At("related", D.Related);
  if (D.Maybe)
    Add("maybe");
  if (D.Query)
    Add("query");
  At("call", F.CallSite);
  if (D.SingleOtherStream)
    Add("single-other-stream");
  if (D.Left)
    Add("left-for-caller");
  if (D.Capture) {
    Add(std::string("capture=") + D.Capture);
    At("begin", D.CaptureBegin);
    Add(std::string("mode=") + captureModeName(D.Mode));
  }
  return S;
}

} // namespace test
} // namespace streamsafe
