require File.expand_path('cocoapods', __dir__)

WhereaboutsEngine.pod('WhereaboutsCore')
