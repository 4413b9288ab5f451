// NdArray: an array of numbers as a learner's file holds it (a .npy, a JSON list of rows, a CSV table), before it
// is known which matrix it stands for: a shape of 0 to 3 dimensions and the numbers in C (row-major) order, read
// into double. Also what the input writers (npy.h, text_arrays.h) write. Plain data.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace attn {

// The widest array a reader accepts: numbers in all (a 1024 x 1024 matrix for each of 16 heads) and dimensions.
inline constexpr int64_t kMaxArrayNumbers = 16LL * 1024 * 1024;
inline constexpr int kMaxArrayDims = 3;

struct NdArray {
  std::vector<int64_t> shape;  // () a scalar, (n) a vector, (r, c) a matrix, (h, r, c) one matrix per head
  std::vector<double> data;    // product(shape) numbers, row-major (C order)
  enum class Precision { Float64, Float32, Integer, Text };  // what the file stored (Text: decimal numbers)
  Precision precision = Precision::Float64;

  int64_t count() const {  // product of shape (1 for a scalar)
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  // The r x c matrix at index `slice` of the leading dimension of an (h, r, c) array, or the whole (r, c) array.
  Matrix matrix(int64_t slice = 0) const;
};

NdArray ndArrayOf(const Matrix& m);                          // (r, c)
NdArray ndArrayOf(const std::vector<Matrix>& slices);        // (h, r, c): the slices must share a shape
NdArray ndScalar(double value, bool integer = false);        // ()
std::string shapeTuple(const std::vector<int64_t>& shape);   // "(2, 5, 5)", "(5,)", "()": numpy's spelling

}  // namespace attn
