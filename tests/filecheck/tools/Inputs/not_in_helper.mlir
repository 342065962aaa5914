sarek.kernel @k() {
  %x = sarek.constant 1 : i32
  sarek.return %x : i32
}
