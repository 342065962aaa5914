"builtin.module"() ({
  %0 = "sarek.constant"() <{value = 0xff800000 : f16}> : () -> f16
}) : () -> ()
