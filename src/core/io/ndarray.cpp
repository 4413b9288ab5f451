// NdArray helpers (ndarray.h).
#include "core/io/ndarray.h"

namespace attn {

Matrix NdArray::matrix(int64_t slice) const {
  const size_t n = shape.size();
  const Eigen::Index rows = n >= 2 ? static_cast<Eigen::Index>(shape[n - 2]) : 1;
  const Eigen::Index cols = n >= 1 ? static_cast<Eigen::Index>(shape[n - 1]) : 1;
  const int64_t offset = n == 3 ? slice * rows * cols : 0;
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < rows * cols; ++i) m.data()[i] = data[static_cast<size_t>(offset + i)];
  return m;
}

NdArray ndArrayOf(const Matrix& m) {
  NdArray a;
  a.shape = {m.rows(), m.cols()};
  a.data.assign(m.data(), m.data() + m.size());  // RowMajor: already C order
  return a;
}

NdArray ndArrayOf(const std::vector<Matrix>& slices) {
  NdArray a;
  const int64_t rows = slices.empty() ? 0 : slices[0].rows(), cols = slices.empty() ? 0 : slices[0].cols();
  a.shape = {static_cast<int64_t>(slices.size()), rows, cols};
  for (const Matrix& m : slices) a.data.insert(a.data.end(), m.data(), m.data() + m.size());
  return a;
}

NdArray ndScalar(double value, bool integer) {
  NdArray a;
  a.data = {value};
  a.precision = integer ? NdArray::Precision::Integer : NdArray::Precision::Float64;
  return a;
}

std::string shapeTuple(const std::vector<int64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) text += ",";
  return text + ")";
}

}  // namespace attn
