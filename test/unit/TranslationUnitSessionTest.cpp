//===--- TranslationUnitSessionTest.cpp - One session per unit ------------===//
//
// The engine checks of one translation unit share a session built from the
// options they were constructed with; the next unit's checks (another
// folder's .clang-tidy) get a session of their own.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/TranslationUnitSession.h"
#include <gtest/gtest.h>

using namespace streamsafe;

namespace {

AnalysisOptions withEventClass(llvm::StringRef Name) {
  AnalysisOptions O;
  O.Config.EventClasses.insert(Name);
  return O;
}

TEST(TranslationUnitSession, ChecksOfOneUnitShareTheUnionOfTheirOptions) {
  TranslationUnitSession S;
  S.addOptions(withEventClass("a::Event"));
  S.addOptions(withEventClass("b::Event"));
  S.beginTranslationUnit();
  const ApiConfig &C = S.get().options().Config;
  EXPECT_TRUE(C.EventClasses.contains("a::Event"));
  EXPECT_TRUE(C.EventClasses.contains("b::Event"));
  AnalysisSession *First = &S.get();
  S.beginTranslationUnit(); // every check of the unit starts it
  EXPECT_EQ(&S.get(), First) << "one session for the whole unit";
}

TEST(TranslationUnitSession, TheNextUnitGetsOnlyItsOwnOptions) {
  TranslationUnitSession S;
  S.addOptions(withEventClass("a::Event"));
  S.beginTranslationUnit();
  AnalysisSession *First = &S.get();
  S.addOptions(withEventClass("c::Event"));
  S.beginTranslationUnit();
  EXPECT_NE(&S.get(), First);
  const ApiConfig &C = S.get().options().Config;
  EXPECT_FALSE(C.EventClasses.contains("a::Event"));
  EXPECT_TRUE(C.EventClasses.contains("c::Event"));
}

TEST(TranslationUnitSession, AUnitWithNoFunctionsDoesNotLeakItsOptions) {
  TranslationUnitSession S;
  S.addOptions(withEventClass("a::Event"));
  S.beginTranslationUnit(); // nothing to analyse: get() is never called
  S.addOptions(withEventClass("b::Event"));
  S.beginTranslationUnit();
  const ApiConfig &C = S.get().options().Config;
  EXPECT_FALSE(C.EventClasses.contains("a::Event"));
  EXPECT_TRUE(C.EventClasses.contains("b::Event"));
}

TEST(TranslationUnitSession, LimitsSetAwayFromTheDefaultApply) {
  const SolverLimits Defaults;
  AnalysisOptions Default, Ten, Twenty;
  Ten.Limits.VisitsPerBlock = 10;
  Twenty.Limits.VisitsPerBlock = 20;
  Twenty.Limits.MaxStateWork = 5;
  TranslationUnitSession S;
  S.addOptions(Default);
  S.addOptions(Ten);
  S.addOptions(Default);
  S.beginTranslationUnit();
  EXPECT_EQ(S.get().options().Limits.VisitsPerBlock, 10u);
  EXPECT_EQ(S.get().options().Limits.MaxStateWork, Defaults.MaxStateWork);
  S.addOptions(Ten);
  S.addOptions(Twenty);
  S.beginTranslationUnit();
  EXPECT_EQ(S.get().options().Limits.VisitsPerBlock, 20u) << "the largest";
  EXPECT_EQ(S.get().options().Limits.MaxStateWork, 5u);
}

TEST(TranslationUnitSession, TheFirstCheckThatAsksForADebugOutputGetsIt) {
  AnalysisOptions None, Dump, Time, Time50;
  Dump.DumpFunction = "f";
  Time.TimeFunctionsMs = 20;
  Time50.TimeFunctionsMs = 50;
  TranslationUnitSession S;
  S.addOptions(None);
  S.addOptions(Dump);
  S.addOptions(Time);
  S.addOptions(Time50);
  S.beginTranslationUnit();
  EXPECT_EQ(S.get().options().DumpFunction, "f");
  EXPECT_EQ(S.get().options().TimeFunctionsMs, 20u);
  S.addOptions(None); // the next unit asks for nothing
  S.beginTranslationUnit();
  EXPECT_EQ(S.get().options().TimeFunctionsMs, 0u);
}

TEST(TranslationUnitSession, SideStreamParametersTurnedOffByOneCheckIsOff) {
  AnalysisOptions On, Off;
  Off.SideStreamParameters = false;
  TranslationUnitSession S;
  S.addOptions(On);
  S.addOptions(Off);
  S.addOptions(On);
  S.beginTranslationUnit();
  EXPECT_FALSE(S.get().options().SideStreamParameters)
      << "one lowering serves every check of the unit";
  S.addOptions(On); // the next unit's checks leave it on
  S.beginTranslationUnit();
  EXPECT_TRUE(S.get().options().SideStreamParameters);
}

TEST(TranslationUnitSession, AskingBeforeTheUnitStartsSealsItsOptions) {
  TranslationUnitSession S;
  S.addOptions(withEventClass("a::Event"));
  EXPECT_TRUE(S.get().options().Config.EventClasses.contains("a::Event"));
  S.addOptions(withEventClass("b::Event")); // a new unit's first check
  EXPECT_FALSE(S.get().options().Config.EventClasses.contains("a::Event"));
}

} // namespace
