//===--- RegionTest.cpp - Parts of a storage (lib/ir/Region.h) ------------===//

#include "lib/ir/Region.h"
#include <gtest/gtest.h>

using namespace streamsafe;

TEST(Region, RowsOverlapOnlyWhenTheirRangesMeet) {
  EXPECT_FALSE(Region::rows(0, 1).mayOverlap(Region::rows(1, 2)));
  EXPECT_FALSE(Region::rows(2, 4).mayOverlap(Region::rows(0, 2)));
  EXPECT_TRUE(Region::rows(0, 2).mayOverlap(Region::rows(1, 2)));
  EXPECT_TRUE(Region::rows(3, 4).mayOverlap(Region::rows(0, INT64_MAX)));
}

TEST(Region, PiecesOfOneChunkingAreDisjoint) {
  EXPECT_FALSE(Region::piece(0, 2).mayOverlap(Region::piece(1, 2)));
  EXPECT_TRUE(Region::piece(1, 2).mayOverlap(Region::piece(1, 2)));
  // Pieces of different chunkings, and pieces against rows, may overlap:
  // the size of the dimension is not known.
  EXPECT_TRUE(Region::piece(0, 2).mayOverlap(Region::piece(3, 4)));
  EXPECT_TRUE(Region::piece(1, 2).mayOverlap(Region::rows(0, 1)));
}

TEST(Region, WholeAndUnknownPartsOverlapEverything) {
  for (Region R : {Region::rows(5, 6), Region::piece(0, 3), Region::whole(),
                   Region::some()}) {
    EXPECT_TRUE(Region::whole().mayOverlap(R));
    EXPECT_TRUE(R.mayOverlap(Region::whole()));
    EXPECT_TRUE(Region::some().mayOverlap(R));
    EXPECT_TRUE(R.mayOverlap(Region::some()));
  }
}

TEST(Region, ContainsDecidesWhatAWriteReplaces) {
  EXPECT_TRUE(Region::whole().contains(Region::rows(0, 1)));
  // An unknown part may be any part: it replaces nothing for certain.
  EXPECT_FALSE(Region::some().contains(Region::piece(0, 2)));
  EXPECT_FALSE(Region::some().contains(Region::some()));
  EXPECT_TRUE(Region::rows(0, 4).contains(Region::rows(1, 3)));
  EXPECT_FALSE(Region::rows(1, 3).contains(Region::rows(0, 4)));
  EXPECT_FALSE(Region::rows(0, 1).contains(Region::whole()));
  EXPECT_FALSE(Region::piece(0, 2).contains(Region::rows(0, 1)));
  EXPECT_TRUE(Region::piece(0, 2).contains(Region::piece(0, 2)));
}

TEST(Region, NamedBoundsAreNeverNegative) {
  // Rows [0, 1) and [h + 1, h + 2): a name a bound is made of is a size.
  Region Top = Region::rows(0, 1);
  Region Bottom = Region::rowsOf(0, 7, 1, 7, 2);
  EXPECT_FALSE(Top.mayOverlap(Bottom));
  EXPECT_FALSE(Bottom.mayOverlap(Top));
  // [h - 1, h) may reach row 0 (h may be 1).
  EXPECT_TRUE(Top.mayOverlap(Region::rowsOf(0, 7, -1, 7, 0)));
  // Rows [0, h + 2) contain [1, h + 1), not [1, k + 1) of another name.
  Region All = Region::rowsOf(0, 0, 0, 7, 2);
  EXPECT_TRUE(All.contains(Region::rowsOf(0, 0, 1, 7, 1)));
  EXPECT_FALSE(All.contains(Region::rowsOf(0, 0, 1, 8, 1)));
}
