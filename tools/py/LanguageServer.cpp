//===--- LanguageServer.cpp - streamsafe-py --lsp -------------------------===//

#include "tools/py/LanguageServer.h"
#include "tools/py/CheckedFile.h"
#include "tools/py/LspText.h"
#include "tools/py/LspTransport.h"
#include "llvm/ADT/StringMap.h"

namespace json = llvm::json;

namespace streamsafe::py {
namespace {

// JSON-RPC and LSP error codes.
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int ServerNotInitialized = -32002;

// LSP's DiagnosticSeverity.
constexpr int SeverityError = 1;
constexpr int SeverityWarning = 2;
constexpr int SeverityInformation = 3;

struct Document {
  std::string Text;
  std::optional<int64_t> Version;
};

class LanguageServer {
public:
  LanguageServer(std::FILE *In, llvm::raw_ostream &Out, llvm::raw_ostream &Log,
                 const PyOptions &Opts, llvm::ArrayRef<std::string> CheckArgs)
      : Transport(In, Out), Log(Log), Opts(Opts), CheckArgs(CheckArgs) {}

  int run();

private:
  /// False at the exit notification.
  bool handle(const json::Object &Message);
  void request(const json::Value &Id, llvm::StringRef Method,
               const json::Object *Params);
  void notification(llvm::StringRef Method, const json::Object *Params);
  void reply(const json::Value &Id, json::Value Result);
  void fail(const json::Value &Id, int Code, const llvm::Twine &Why);

  void didChange(const json::Object &Params);
  /// Checks the buffer of \p Uri and sends its diagnostics.
  void publish(llvm::StringRef Uri);
  json::Value range(const Document &D, Position At) const;

  LspTransport Transport;
  llvm::raw_ostream &Log;
  const PyOptions &Opts;
  llvm::ArrayRef<std::string> CheckArgs;
  llvm::StringMap<Document> Docs;
  bool Initialized = false, ShutDown = false;
};

int LanguageServer::run() {
  while (true) {
    std::string Error;
    std::optional<std::string> Body = Transport.read(Error);
    if (!Body) {
      if (!Error.empty())
        Log << "streamsafe-py: error: " << Error << "\n";
      return 1; // the client went away without exit
    }
    llvm::Expected<json::Value> Message = json::parse(*Body);
    if (!Message) {
      fail(nullptr, ParseError,
           "the message is not JSON: " + llvm::toString(Message.takeError()));
      continue;
    }
    const json::Object *Object = Message->getAsObject();
    if (!Object) {
      fail(nullptr, InvalidRequest, "the message is not a JSON object");
      continue;
    }
    if (!handle(*Object))
      return ShutDown ? 0 : 1;
  }
}

bool LanguageServer::handle(const json::Object &Message) {
  std::optional<llvm::StringRef> Method = Message.getString("method");
  const json::Value *Id = Message.get("id");
  if (!Method) {
    // A response to a request of ours (we send none) or garbage.
    if (Id && !Message.get("result") && !Message.get("error"))
      fail(*Id, InvalidRequest, "a request without a method");
    return true;
  }
  const json::Object *Params = Message.getObject("params");
  if (*Method == "exit")
    return false;
  if (Id)
    request(*Id, *Method, Params);
  else
    notification(*Method, Params);
  return true;
}

void LanguageServer::reply(const json::Value &Id, json::Value Result) {
  Transport.write(json::Object{
      {"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void LanguageServer::fail(const json::Value &Id, int Code,
                          const llvm::Twine &Why) {
  Transport.write(json::Object{
      {"jsonrpc", "2.0"},
      {"id", Id},
      {"error", json::Object{{"code", Code}, {"message", Why.str()}}}});
}

void LanguageServer::request(const json::Value &Id, llvm::StringRef Method,
                             const json::Object *) {
  if (Method == "initialize") {
    if (Initialized)
      return fail(Id, InvalidRequest, "initialize was already received");
    Initialized = true;
    return reply(
        Id,
        json::Object{
            {"capabilities",
             json::Object{{"positionEncoding", "utf-16"},
                          {"textDocumentSync",
                           json::Object{{"openClose", true},
                                        {"change", 2}, // incremental
                                        {"save", json::Object{{"includeText",
                                                               false}}}}}}},
            {"serverInfo", json::Object{{"name", "streamsafe-py"},
                                        {"version", STREAMSAFE_VERSION}}}});
  }
  if (!Initialized)
    return fail(Id, ServerNotInitialized, "initialize must come first");
  if (ShutDown)
    return fail(Id, InvalidRequest, "the server is shutting down");
  if (Method == "shutdown") {
    ShutDown = true;
    return reply(Id, nullptr);
  }
  fail(Id, MethodNotFound, "streamsafe-py does not serve '" + Method + "'");
}

void LanguageServer::notification(llvm::StringRef Method,
                                  const json::Object *Params) {
  // Before initialize, notifications are dropped (the protocol's rule).
  if (!Initialized || ShutDown || !Params)
    return;
  const json::Object *TextDocument = Params->getObject("textDocument");
  std::optional<llvm::StringRef> Uri =
      TextDocument ? TextDocument->getString("uri") : std::nullopt;
  if (!Uri)
    return; // initialized, $/cancelRequest, configuration changes, ...
  if (Method == "textDocument/didOpen") {
    std::optional<llvm::StringRef> Text = TextDocument->getString("text");
    if (!Text)
      return;
    Docs[*Uri] = {Text->str(), TextDocument->getInteger("version")};
    publish(*Uri);
  } else if (Method == "textDocument/didChange") {
    didChange(*Params);
  } else if (Method == "textDocument/didSave") {
    // The text is the buffer's; a save may have changed the .clang-tidy.
    if (Docs.count(*Uri))
      publish(*Uri);
  } else if (Method == "textDocument/didClose") {
    Docs.erase(*Uri);
    Transport.write(
        json::Object{{"jsonrpc", "2.0"},
                     {"method", "textDocument/publishDiagnostics"},
                     {"params", json::Object{{"uri", *Uri},
                                             {"diagnostics", json::Array{}}}}});
  }
}

void LanguageServer::didChange(const json::Object &Params) {
  const json::Object *TextDocument = Params.getObject("textDocument");
  llvm::StringRef Uri = *TextDocument->getString("uri");
  auto It = Docs.find(Uri);
  const json::Array *Changes = Params.getArray("contentChanges");
  if (It == Docs.end() || !Changes) {
    Log << "streamsafe-py: didChange of a document that is not open: " << Uri
        << "\n";
    return;
  }
  Document &D = It->second;
  for (const json::Value &C : *Changes) {
    const json::Object *Change = C.getAsObject();
    std::optional<llvm::StringRef> Text =
        Change ? Change->getString("text") : std::nullopt;
    if (!Text)
      continue;
    const json::Object *Range = Change->getObject("range");
    if (!Range) {
      D.Text = Text->str();
      continue;
    }
    auto Offset = [&](const char *End) -> size_t {
      const json::Object *P = Range->getObject(End);
      std::optional<int64_t> L = P ? P->getInteger("line") : std::nullopt;
      std::optional<int64_t> Ch = P ? P->getInteger("character") : std::nullopt;
      if (!L || !Ch || *L < 0 || *Ch < 0)
        return D.Text.size();
      return offsetOf(D.Text, static_cast<unsigned>(*L),
                      static_cast<unsigned>(*Ch));
    };
    size_t Begin = Offset("start"), End = std::max(Begin, Offset("end"));
    D.Text.replace(Begin, End - Begin, Text->str());
  }
  D.Version = TextDocument->getInteger("version");
  publish(Uri);
}

json::Value LanguageServer::range(const Document &D, Position At) const {
  unsigned Line = At.Line ? At.Line - 1 : 0;
  unsigned Byte = At.Column ? At.Column - 1 : 0;
  llvm::StringRef Text = lineOf(D.Text, Line);
  unsigned Begin = utf16Column(Text, Byte);
  unsigned End = utf16Column(Text, Byte + tokenLength(Text, Byte));
  return json::Object{
      {"start", json::Object{{"line", Line}, {"character", Begin}}},
      {"end", json::Object{{"line", Line}, {"character", End}}}};
}

void LanguageServer::publish(llvm::StringRef Uri) {
  const Document &D = Docs.find(Uri)->second;
  std::string Path = uriToPath(Uri).value_or("untitled.py");
  CheckedFile R = checkFile(Path, D.Text, Opts, CheckArgs);
  json::Array Diagnostics;
  auto Add = [&](Position At, int Severity, llvm::StringRef Code,
                 const std::string &Message, json::Array Related) {
    json::Object Diag{{"range", range(D, At)},
                      {"severity", Severity},
                      {"source", "streamsafe"},
                      {"message", Message}};
    if (!Code.empty())
      Diag["code"] = Code;
    if (!Related.empty())
      Diag["relatedInformation"] = std::move(Related);
    Diagnostics.push_back(std::move(Diag));
  };
  if (R.GrammarRefused)
    Add({}, SeverityError, "",
        "the tree-sitter runtime refuses the Python grammar (ABI mismatch); "
        "nothing is analysed",
        {});
  for (const FileError &E : R.Errors)
    Add(E.At.value_or(Position{}), SeverityError, E.Check,
        E.File.empty() ? E.Message : E.File + ": " + E.Message, {});
  for (const std::string &S : R.Skipped)
    Add({}, SeverityInformation, "",
        "'" + S + "' is not analysed: the analysis budget was exceeded", {});
  for (const std::vector<Diagnostic> &F : R.Findings) {
    // A warning in a helper of another module is shown at the first of its
    // lines in this buffer (the call), its own place a related location.
    size_t Here = 0;
    while (Here < F.size() && !F[Here].File.empty())
      ++Here;
    if (Here == F.size())
      continue;
    json::Array Related;
    for (size_t K = 0; K < F.size(); ++K) {
      if (K == Here)
        continue;
      // Another file's range is given by its line and column as written.
      json::Value Range =
          F[K].File.empty()
              ? range(D, F[K].At)
              : json::Object{
                    {"start",
                     json::Object{{"line", F[K].At.Line ? F[K].At.Line - 1 : 0},
                                  {"character",
                                   F[K].At.Column ? F[K].At.Column - 1 : 0}}},
                    {"end",
                     json::Object{{"line", F[K].At.Line ? F[K].At.Line - 1 : 0},
                                  {"character", F[K].At.Column}}}};
      Related.push_back(json::Object{
          {"location",
           json::Object{
               {"uri", F[K].File.empty() ? Uri : "file://" + F[K].File},
               {"range", std::move(Range)}}},
          {"message", F[K].Text}});
    }
    Add(F[Here].At, SeverityWarning, F.front().Check, F.front().Text,
        std::move(Related));
  }
  json::Object Params{{"uri", Uri}, {"diagnostics", std::move(Diagnostics)}};
  if (D.Version)
    Params["version"] = *D.Version;
  Transport.write(json::Object{{"jsonrpc", "2.0"},
                               {"method", "textDocument/publishDiagnostics"},
                               {"params", std::move(Params)}});
}

} // namespace

int serveLanguageClient(std::FILE *In, llvm::raw_ostream &Out,
                        llvm::raw_ostream &Log, const PyOptions &Opts,
                        llvm::ArrayRef<std::string> CheckArgs) {
  return LanguageServer(In, Out, Log, Opts, CheckArgs).run();
}

} // namespace streamsafe::py
