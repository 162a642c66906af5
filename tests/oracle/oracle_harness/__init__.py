"""The bash oracle: run a launcher under real bash with recording stubs, compare with packgate."""
