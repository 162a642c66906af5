# sourced: return ends this file, the batch gate is never exported
export OFFLINE_PACKING_BMR=1
return 0
export OFFLINE_PACKED_DATA=1
